import { describe, expect, it } from "vitest";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { checkCode, type GraphNode } from "@autograms/runtime";
import { compileOk, fixtureSource, fixturesDir } from "./support/compile.js";

const samplesDir = fileURLToPath(new URL("../../samples", import.meta.url));
const agents = [
  // Each compiled where it is, so the modules it imports custom actions from are found.
  ...readdirSync(fixturesDir)
    .filter((d) => existsSync(`${fixturesDir}/${d}/expected.graph.json`))
    .map((d) => ({ name: d, source: fixtureSource(d), file: `${fixturesDir}/${d}/input.ts` })),
  ...readdirSync(samplesDir)
    .filter((d) => existsSync(`${samplesDir}/${d}/agent.ts`))
    .map((d) => ({
      name: `samples/${d}`,
      source: readFileSync(`${samplesDir}/${d}/agent.ts`, "utf8"),
      file: `${samplesDir}/${d}/agent.ts`,
    })),
];

/** Every text of a node that the runtime hands to its evaluator. */
function codeOf(node: GraphNode): string[] {
  const texts: string[] = [];
  if (["code", "function", "local_function", "global_function"].includes(node.action)) texts.push(node.instruction!);
  if (node.boolean_condition !== undefined) texts.push(node.boolean_condition);
  return texts;
}

// The compiler writes code for the runtime's sandboxed evaluator; any text it refuses would fail
// only when a conversation reaches it, so every graph the fixtures and samples make is checked.
describe("code in compiled graphs", () => {
  it("covers the fixtures and samples, with plenty of code among them", () => {
    const total = agents.reduce((n, { source, file }) => n + compileOk(source, file).nodes.flatMap(codeOf).length, 0);
    expect(total).toBeGreaterThan(200);
  });

  it.each(agents)("$name: the evaluator accepts every code node, condition and call", ({ source, file }) => {
    const graph = compileOk(source, file);
    const texts = graph.nodes.flatMap(codeOf);
    const refused = texts.map((code) => ({ code, error: checkCode(code)?.message })).filter((r) => r.error);
    expect(refused).toEqual([]);
  });
});
