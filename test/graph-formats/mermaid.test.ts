// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { toMermaid } from "@autograms/compiler";
import type { Graph, GraphNode } from "@autograms/runtime";
import { parseFlowchart } from "./support/mermaid-parse.js";

// Paths from import.meta.dirname: under happy-dom, URL resolution follows the fake page's location.
const fixture = (name: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, "fixtures", `${name}.graph.json`), "utf8")) as Graph;
const FIXTURES = ["functions", "special-targets", "escaping"];

// The statements toMermaid may emit, each a whole line. Inside quotes only entity-escaped text:
// no raw quote, '#' only opening an entity, no ';' ':' '|' '<' '>' '&' or backtick except <br/>.
const LABEL = String.raw`"(?:[^"#;:|<>&\x60\n]|#\d+;|<br/>)*"`;
const ID = String.raw`[A-Za-z][A-Za-z0-9_]*`;
const SHAPES = [
  String.raw`\[`,
  String.raw`\]`,
  String.raw`\(`,
  String.raw`\)`,
  ">",
  String.raw`\]`,
  String.raw`\[\[`,
  String.raw`\]\]`,
  String.raw`\[/`,
  String.raw`/\]`,
  "\\{",
  "\\}",
  "\\{\\{",
  "\\}\\}",
  String.raw`\(\[`,
  String.raw`\]\)`,
  String.raw`\[/`,
  String.raw`\\\]`,
];
const shapeAlternatives: string[] = [];
for (let i = 0; i < SHAPES.length; i += 2) shapeAlternatives.push(`${SHAPES[i]}${LABEL}${SHAPES[i + 1]}`);
const GRAMMAR = [
  /^flowchart TD$/,
  new RegExp(`^  subgraph ${ID} \\[${LABEL}\\]$`),
  /^ {2}end$/,
  new RegExp(`^ {2,4}${ID}(?:${shapeAlternatives.join("|")})$`),
  new RegExp(`^  ${ID} (?:-->|-\\.->)(?:\\|${LABEL}\\|)? ${ID}$`),
  /^ {2}classDef s_[a-z]+ [a-z-]+:[#\w -]+(?:,[a-z-]+:[#\w -]+)*$/,
  new RegExp(`^  class ${ID}(?:,${ID})* s_[a-z]+$`),
];

function checkGrammar(text: string): string[] {
  return text
    .split("\n")
    .slice(0, -1)
    .filter((line) => !GRAMMAR.some((re) => re.test(line)));
}

/** A text shown on one line: control characters and runs of spaces become one space. */
const oneLine = (text: string) => text.replace(/[\s\u0000-\u001f\u007f]+/g, " ").trim();

const nodeId = (graph: Graph, name: string) => `n${graph.nodes.findIndex((n) => n.name === name)}`;

describe("toMermaid", () => {
  it.each(FIXTURES)("%s: matches its snapshot and only emits the strict grammar", async (name) => {
    const text = toMermaid(fixture(name));
    await expect(text).toMatchFileSnapshot(`./fixtures/${name}.mmd`);
    expect(checkGrammar(text)).toEqual([]);
  });

  it.each(FIXTURES)("%s: Mermaid's parser reads every node back with its exact name", async (name) => {
    const graph = fixture(name);
    const parsed = await parseFlowchart(toMermaid(graph));
    graph.nodes.forEach((node, i) => {
      const vertex = parsed.vertices.get(`n${i}`);
      expect(vertex, node.name).toBeDefined();
      expect(vertex?.text.split("\n")[0]).toBe(oneLine(node.name));
    });
  });

  it("puts each function in its own subgraph and labels decisions", async () => {
    const graph = fixture("functions");
    const parsed = await parseFlowchart(toMermaid(graph));
    const members = (title: string) =>
      parsed.subgraphs
        .find((s) => s.title === title)
        ?.nodes.filter((id) => id.startsWith("n"))
        .sort();
    const ids = (...names: string[]) => names.map((n) => nodeId(graph, n)).sort();
    expect(members("main")).toEqual(
      ids(
        "main",
        "ask_ready",
        "main.for_1.init",
        "main.for_1.a",
        "main.for_1.b",
        "main.for_1.body",
        "main.for_1.step",
        "main.congratulate",
      ),
    );
    expect(members("global_function doUnit(unit)")).toEqual(
      ids(
        "doUnit",
        "doUnit.problem",
        "doUnit.give",
        "doUnit.check",
        "doUnit.if_1.a",
        "doUnit.if_1.b",
        "doUnit.praise",
        "doUnit.explain",
      ),
    );
    expect(members("local_function checkAnswer(problem)")).toEqual(ids("checkAnswer"));

    const edge = (from: string, to: string) =>
      parsed.edges.filter(
        (e) =>
          e.start === nodeId(graph, from) &&
          e.end === (graph.nodes.some((n) => n.name === to) ? nodeId(graph, to) : to),
      );
    expect(edge("ask_ready", "main.for_1.init").map((e) => e.text)).toEqual(["yes"]);
    expect(edge("ask_ready", "ask_ready").map((e) => e.text)).toEqual(["no"]);
    expect(edge("main.for_1.init", "main.for_1.a").map((e) => e.text)).toEqual(["i < units.length"]);
    expect(edge("main.for_1.init", "main.for_1.b").map((e) => e.text)).toEqual(["else"]);
    expect(edge("doUnit.check", "doUnit.if_1.a").map((e) => e.text)).toEqual(['verdict === "correct"']);
    // Calls are dotted edges to the callee's entry; the caller's own transition continues in its subgraph.
    expect(edge("main.for_1.body", "doUnit")).toEqual([
      { start: nodeId(graph, "main.for_1.body"), end: nodeId(graph, "doUnit"), text: "call", stroke: "dotted" },
    ]);
    expect(edge("doUnit.check", "checkAnswer").map((e) => e.stroke)).toEqual(["dotted"]);

    // return and quit are terminals; a return value is the edge's label.
    const target = (from: string) =>
      parsed.edges
        .filter((e) => e.start === nodeId(graph, from) && e.stroke === "normal")
        .map((e) => ({ to: parsed.vertices.get(e.end)?.text, label: e.text }));
    expect(target("checkAnswer")).toEqual([{ to: "return", label: "verdict.trim()" }]);
    expect(target("doUnit.praise")).toEqual([{ to: "return", label: "" }]);
    expect(target("main.congratulate")).toEqual([{ to: "quit", label: "" }]);
    expect(parsed.vertices.get(nodeId(graph, "doUnit.problem"))?.text).toBe(
      "doUnit.problem\nproblem = thought: Write one short problem about $unit.",
    );
  });

  it("draws visits, wildcards by history, dynamic targets, interjections and missing names", async () => {
    const graph = fixture("special-targets");
    const parsed = await parseFlowchart(toMermaid(graph));
    const from = (name: string) =>
      parsed.edges
        .filter((e) => e.start === nodeId(graph, name))
        .map((e) => [parsed.vertices.get(e.end)?.text.split("\n")[0], e.text]);
    expect(from("start1")).toEqual([
      ["topic.n", "a lesson"],
      ["$next_node", "something the agent chose"],
      ["ask.a", "a quiz · by state history"],
      ["ask.b", "a quiz · by state history"],
      ["quit", "to stop"],
    ]);
    // One router per X.n target, whatever the number of nodes that use it.
    const router = parsed.edges.find((e) => e.start === nodeId(graph, "start1") && e.text === "a lesson")
      ?.end as string;
    expect(parsed.vertices.get(router)?.text).toBe("topic.n\nfirst not yet visited");
    expect(
      parsed.edges
        .filter((e) => e.start === router)
        .map((e) => [parsed.vertices.get(e.end)?.text.split("\n")[0], e.text]),
    ).toEqual([
      ["topic.1", "visit 1"],
      ["topic.2", "visit 2+"],
    ]);
    expect(from("orphan")).toEqual([["missing: nowhere", ""]]);
    expect(parsed.vertices.get(nodeId(graph, "off_topic"))?.text).toBe(
      "off_topic\nchat: Steer back to the lesson.\ninterjection: The user wants to change the topic.",
    );
    expect(parsed.vertices.get(nodeId(graph, "off_topic"))?.type).toBe("hexagon");
    // The interjection is part of main's conversation; a node nothing reaches gets its own subgraph.
    expect(parsed.subgraphs.find((s) => s.title === "main")?.nodes).toContain(nodeId(graph, "off_topic"));
    expect(parsed.subgraphs.find((s) => s.title === "not reached from main or any function")?.nodes).toContain(
      nodeId(graph, "orphan"),
    );
  });

  it("keeps any text intact through Mermaid's parser (quotes, brackets, #, ;, newlines, unicode)", async () => {
    // Several nodes in each diagram: a parse by Mermaid (under jsdom) is most of the time, so
    // 40 diagrams of 4 nodes try as many texts as 160 diagrams of one, in a quarter of the time.
    const text = fc.string({ unit: "binary", maxLength: 30 });
    const node = fc.record({ name: text, instruction: text, choice: text });
    await fc.assert(
      fc.asyncProperty(fc.array(node, { minLength: 1, maxLength: 4 }), async (nodes) => {
        fc.pre(nodes.every((n) => oneLine(n.name) !== "" && n.name !== "other"));
        fc.pre(new Set(nodes.map((n) => n.name)).size === nodes.length); // a graph's names are unique
        const graph: Graph = {
          format: "autograms-graph",
          version: 1,
          agent: "P",
          globals: {},
          functions: {},
          nodes: [
            ...nodes.map(
              ({ name, instruction, choice }) =>
                ({
                  name,
                  action: "chat_exact",
                  instruction,
                  transitions: ["other", "quit"],
                  transition_question: "q",
                  transition_choices: [choice, "x"],
                }) as GraphNode,
            ),
            { name: "other", action: "transition", transitions: nodes.map((n) => n.name) },
          ],
        };
        const mmd = toMermaid(graph);
        expect(checkGrammar(mmd)).toEqual([]);
        const parsed = await parseFlowchart(mmd);
        const other = `n${nodes.length}`;
        nodes.forEach(({ name, instruction, choice }, i) => {
          const label = parsed.vertices.get(`n${i}`)?.text ?? "";
          const shownName = oneLine(name);
          expect(label.split("\n")[0]).toBe(shownName);
          const shown = oneLine(instruction);
          if (Array.from(shown).length + 12 <= 60)
            expect(label).toBe(`${shownName}\nchat_exact${shown === "" ? "" : `: ${shown}`}`);
          const edge = parsed.edges.find((e) => e.start === `n${i}` && e.end === other);
          const shownChoice = oneLine(choice);
          if (Array.from(shownChoice).length <= 40) expect(edge?.text).toBe(shownChoice);
        });
      }),
      { numRuns: 40 },
    );
  });
});
