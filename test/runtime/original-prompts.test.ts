import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { compile, importSpreadsheet, writeCsv } from "@autograms/compiler";
import { Agent, type Graph, type Memory } from "@autograms/runtime";
import { TestModel, queue, roundTrip } from "./helpers.js";

/**
 * Every kind of prompt the original sends to its models, byte for byte. The expectations in
 * fixtures/original-prompts.json were recorded by running the original's code (commit 243158a of
 * github.com/autograms/autograms) with models that record what they are sent; each scenario cites
 * the file and lines of the original that build its prompts. Each scenario runs here twice, from
 * the same nodes written as the original's spreadsheet and as a TypeScript agent: both must send
 * exactly the original's prompts.
 */

type OriginalNode = Record<string, string | number | string[]>;
interface Scenario {
  source: string;
  nodes: OriginalNode[];
  messages: string[];
  replies: string[];
  answers: number[];
  original: { chat: { role: string; content: string }[][]; choose: string[] };
}

const fixtures = JSON.parse(
  readFileSync(new URL("./fixtures/original-prompts.json", import.meta.url), "utf8"),
) as Record<string, Scenario | string>;
const scenarios = Object.entries(fixtures).filter((e): e is [string, Scenario] => typeof e[1] !== "string");

/** The nodes as the original's sheet: one column per keyword, lists comma-separated, choices lettered. */
function asSheet(nodes: OriginalNode[]): string {
  const rows = nodes.map((node) => {
    const row: Record<string, string> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === "transition_choices")
        for (const [i, c] of (value as string[]).entries()) row[`transition_choice_${"abcde"[i]}`] = c;
      else row[key] = Array.isArray(value) ? value.join(",") : String(value);
    }
    return row;
  });
  const header = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return writeCsv([header, ...rows.map((r) => header.map((h) => r[h] ?? ""))]);
}

/** The nodes as a TypeScript agent: one exec_node each, in order, named as in the sheet. */
function asAgent(nodes: OriginalNode[]): string {
  const calls = nodes.map((node) => `    exec_node(${JSON.stringify(node)});`).join("\n");
  return `import { Autogram, exec_node } from "@autograms/runtime";\nexport default class Scenario extends Autogram {\n  main() {\n${calls}\n  }\n}\n`;
}

function fromSheet(nodes: OriginalNode[]): Graph {
  const { graph, diagnostics } = importSpreadsheet(asSheet(nodes), { fileName: "scenario.csv" });
  if (!graph) throw new Error(diagnostics.map((d) => d.message).join("\n"));
  return graph;
}

function fromAgent(nodes: OriginalNode[]): Graph {
  const { graph, diagnostics } = compile(asAgent(nodes), { fileName: "scenario.ts" });
  if (!graph) throw new Error(diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`).join("\n"));
  return graph;
}

async function prompts(graph: Graph, scenario: Scenario) {
  const answers = queue(scenario.answers);
  const model = new TestModel(queue(scenario.replies), () => answers());
  const agent = new Agent(graph, { model });
  let memory: Memory | undefined;
  for (const text of scenario.messages) memory = (await agent.reply(text, memory && roundTrip(memory))).memory;
  return { chat: model.completions.map((c) => c.messages), choose: model.choices.map((c) => c.prompt) };
}

describe("prompts, byte for byte the original's", () => {
  it("covers every kind of prompt the original builds", () => {
    expect(scenarios.map(([kind]) => kind)).toEqual([
      "chat",
      "yes_no",
      "multiple_choice",
      "transition_context",
      "interjection",
      "thoughts",
      "chat_suffix",
      "thought_qa",
    ]);
    expect(scenarios.every(([, s]) => /autograms\/[\w/]+\.py:\d+/.test(s.source))).toBe(true);
  });

  describe.each(scenarios)("%s", (_kind, scenario) => {
    it("from the original's spreadsheet", async () => {
      expect(await prompts(fromSheet(scenario.nodes), scenario)).toEqual(scenario.original);
    });
    it("from a TypeScript agent", async () => {
      expect(await prompts(fromAgent(scenario.nodes), scenario)).toEqual(scenario.original);
    });
  });
});
