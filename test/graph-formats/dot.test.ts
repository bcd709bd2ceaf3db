import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { toDot, toMermaid } from "@autograms/compiler";
import type { Graph, GraphNode } from "@autograms/runtime";

const fixture = (name: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, "fixtures", `${name}.graph.json`), "utf8")) as Graph;
const FIXTURES = ["functions", "special-targets", "escaping"];

// A DOT double-quoted string as toDot writes it: only \\ \" \n escapes, no raw line break.
const STR = String.raw`"(?:[^"\\\n]|\\[\\"n])*"`;
const ATTR = String.raw`[a-z]+=(?:${STR}|[A-Za-z0-9.]+)`;
const ATTRS = String.raw`\[${ATTR}(?:, ${ATTR})*\]`;
const GRAMMAR = [
  new RegExp(`^digraph ${STR} \\{$`),
  new RegExp(`^  label=${STR};$`),
  /^ {2}labelloc=t;$/,
  new RegExp(`^  (?:node|edge) ${ATTRS};$`),
  new RegExp(`^  subgraph ${STR} \\{$`),
  new RegExp(`^    label=${STR};$`),
  new RegExp(`^ {2,4}${STR} ${ATTRS};$`),
  new RegExp(`^  ${STR} -> ${STR}(?: ${ATTRS})?;$`),
  /^ {0,2}\}$/,
];

/** Reads a DOT string literal back (the inverse of toDot's quoting). */
function unquote(literal: string): string {
  return literal.slice(1, -1).replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
}

interface ParsedDot {
  nodes: Map<string, { label: string; cluster: string | undefined }>;
  edges: { from: string; to: string; label: string | undefined; dashed: boolean }[];
  clusters: Map<string, string>;
}

function parseDot(text: string): ParsedDot {
  const nodes = new Map<string, { label: string; cluster: string | undefined }>();
  const edges: ParsedDot["edges"] = [];
  const clusters = new Map<string, string>();
  let cluster: string | undefined;
  const str = new RegExp(STR, "g");
  for (const line of text.split("\n")) {
    const strings = line.match(str) ?? [];
    if (line.startsWith("  subgraph ")) cluster = unquote(strings[0] as string);
    else if (line === "  }") cluster = undefined;
    else if (line.startsWith("    label=") && cluster) clusters.set(cluster, unquote(strings[0] as string));
    else if (/^ {2,4}"/.test(line) && line.includes(" -> ")) {
      const label = /label=("(?:[^"\\]|\\.)*")/.exec(line)?.[1];
      edges.push({
        from: unquote(strings[0] as string),
        to: unquote(strings[1] as string),
        label: label && unquote(label),
        dashed: line.includes("style=dashed"),
      });
    } else if (/^ {2,4}"/.test(line)) {
      nodes.set(unquote(strings[0] as string), { label: unquote(strings[1] as string), cluster });
    }
  }
  return { nodes, edges, clusters };
}

const oneLine = (text: string) => text.replace(/[\s\u0000-\u001f\u007f]+/g, " ").trim();

describe("toDot", () => {
  it.each(FIXTURES)("%s: matches its snapshot and only emits the strict grammar", async (name) => {
    const text = toDot(fixture(name));
    await expect(text).toMatchFileSnapshot(`./fixtures/${name}.dot`);
    expect(
      text
        .split("\n")
        .slice(0, -1)
        .filter((line) => !GRAMMAR.some((re) => re.test(line))),
    ).toEqual([]);
  });

  it("shows the same clusters, nodes and edges as the Mermaid export", () => {
    for (const name of FIXTURES) {
      const graph = fixture(name);
      const dot = parseDot(toDot(graph));
      const mermaid = toMermaid(graph);
      // Every edge of the DOT picture is an edge of the Mermaid one, between the same ids.
      for (const edge of dot.edges)
        expect(mermaid).toMatch(new RegExp(`^  ${edge.from} -\\.?->(?:\\|[^\\n]*\\|)? ${edge.to}$`, "m"));
      expect(dot.edges.length).toBe(mermaid.split("\n").filter((l) => / -\.?->/.test(l)).length);
      for (const [i, node] of graph.nodes.entries())
        expect(dot.nodes.get(`n${i}`)?.label.split("\n")[0]).toBe(oneLine(node.name));
    }
  });

  it("groups functions in clusters and labels decisions", () => {
    const graph = fixture("functions");
    const dot = parseDot(toDot(graph));
    const id = (name: string) => `n${graph.nodes.findIndex((n) => n.name === name)}`;
    expect(dot.clusters.get(dot.nodes.get(id("doUnit.praise"))?.cluster ?? "")).toBe("global_function doUnit(unit)");
    expect(dot.nodes.get(id("checkAnswer"))?.cluster).toBe(dot.nodes.get("f2_t0")?.cluster);
    expect(dot.edges.filter((e) => e.from === id("ask_ready")).map((e) => [e.to, e.label])).toEqual([
      [id("main.for_1.init"), "yes"],
      [id("ask_ready"), "no"],
    ]);
    expect(dot.edges.find((e) => e.from === id("main.for_1.body") && e.dashed)).toEqual({
      from: id("main.for_1.body"),
      to: id("doUnit"),
      label: "call",
      dashed: true,
    });
    expect(dot.nodes.get("quit")).toEqual({ label: "quit", cluster: undefined });
  });

  it("quotes any text so it reads back unchanged", () => {
    const text = fc.string({ unit: "binary", maxLength: 30 });
    fc.assert(
      fc.property(text, text, (name, choice) => {
        fc.pre(oneLine(name) !== "" && name !== "other");
        const graph: Graph = {
          format: "autograms-graph",
          version: 1,
          agent: name,
          globals: {},
          functions: {},
          nodes: [
            {
              name,
              action: "chat_exact",
              instruction: name,
              transitions: ["other", "quit"],
              transition_question: "q",
              transition_choices: [choice, "x"],
            } as GraphNode,
            { name: "other", action: "transition", transitions: [name] },
          ],
        };
        const out = toDot(graph);
        expect(
          out
            .split("\n")
            .slice(0, -1)
            .filter((line) => !GRAMMAR.some((re) => re.test(line))),
        ).toEqual([]);
        const parsed = parseDot(out);
        expect(parsed.nodes.get("n0")?.label.split("\n")[0]).toBe(oneLine(name));
        const shownChoice = oneLine(choice);
        const label = parsed.edges.find((e) => e.from === "n0" && e.to === "n1")?.label;
        if (Array.from(shownChoice).length <= 40) expect(label).toBe(shownChoice === "" ? undefined : shownChoice);
      }),
      { numRuns: 300 },
    );
  });
});
