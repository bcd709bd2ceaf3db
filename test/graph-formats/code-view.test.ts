// The picture at the level of the code (toSvg's default view): the compiler's nodes folded into
// the statements they came from, labels from the source, every node still represented.
import { describe, expect, it } from "vitest";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { toDot, toMermaid, toSvg } from "@autograms/compiler";
import type { Graph } from "@autograms/runtime";

const ROOT = join(import.meta.dirname, "..", "..");
// Every sample agent (samples/web is a chat page, not an agent).
const SAMPLES = readdirSync(join(ROOT, "samples"), { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(ROOT, "samples", d.name, "agent.graph.json")))
  .map((d) => d.name);
const sample = (name: string) => ({
  graph: JSON.parse(readFileSync(join(ROOT, "samples", name, "agent.graph.json"), "utf8")) as Graph,
  source: readFileSync(join(ROOT, "samples", name, "agent.ts"), "utf8"),
});

const unescape = (s: string) => s.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)));

interface Drawn {
  id: string;
  node: string;
  folded: string[];
  texts: string[];
}

/** The nodes and edges an SVG of toSvg draws. */
function parseSvg(svg: string): { nodes: Drawn[]; edges: { from: string; to: string; kind: string }[] } {
  const nodes = [
    ...svg.matchAll(
      /<g class="item node[^"]*" data-id="([^"]+)" data-node="([^"]+)"(?: data-nodes="([^"]+)")?[^>]*>(.*?)<\/g>(?=\n|$)/g,
    ),
  ].map((m) => ({
    id: m[1]!,
    node: unescape(m[2]!),
    folded: m[3] ? unescape(m[3]).split(" ") : [],
    texts: [...m[4]!.matchAll(/<text class="(?:name|detail)"[^>]*>([^<]*)<\/text>/g)].map((t) => unescape(t[1]!)),
  }));
  const edges = [...svg.matchAll(/<g class="edge ([a-z]+)[^"]*" data-from="([^"]+)" data-to="([^"]+)"/g)].map((m) => ({
    kind: m[1]!,
    from: m[2]!,
    to: m[3]!,
  }));
  return { nodes, edges };
}

// What the compiler names: a statement's nodes (`main.while_adaa.b`, `merge.for_of_6c02.counter`) and its temporaries.
const INTERNAL =
  /\b[A-Za-z_$][\w$]*\.(?:[\w$]+\.)*[a-z_]+_[0-9a-f]{4}\b|\.(?:iterable|counter|item|step)\b|_tmp_|_loop_|\$\$/;

describe("the code view of a graph", () => {
  it.each(SAMPLES)("%s: no label is a compiler name, every node is shown or folded into a shown one", (name) => {
    const { graph, source } = sample(name);
    const { nodes } = parseSvg(toSvg(graph, { source }));
    const internalNames = new Set(graph.nodes.map((n) => n.name).filter((n) => n.includes(".")));
    for (const n of nodes) {
      for (const text of n.texts) {
        expect(text, `label of ${n.node}`).not.toMatch(INTERNAL);
        expect(internalNames.has(text.replace(/…$/, "")), `label of ${n.node}`).toBe(false);
      }
    }
    // Each node of the graph once: drawn itself, or named by the node it is folded into.
    const represented = nodes.flatMap((n) => [n.node, ...n.folded]).sort();
    expect(represented).toEqual(graph.nodes.map((n) => n.name).sort());
  });

  it.each(["algorithms", "tutor"])(
    "%s: folds the loops and branches, keeping the edges between shown nodes",
    (name) => {
      const { graph, source } = sample(name);
      const code = parseSvg(toSvg(graph, { source }));
      const raw = parseSvg(toSvg(graph, { view: "raw" }));
      expect(raw.nodes.length).toBe(graph.nodes.length);
      expect(code.nodes.length).toBeLessThan(raw.nodes.length * 0.85);
      const shown = new Set(code.nodes.map((n) => n.id));
      const key = (e: { from: string; to: string; kind: string }) => `${e.kind} ${e.from} ${e.to}`;
      const codeEdges = new Set(code.edges.map(key));
      const pseudo = (id: string) => !raw.nodes.some((n) => n.id === id);
      for (const e of raw.edges) {
        if ((shown.has(e.from) || pseudo(e.from)) && (shown.has(e.to) || pseudo(e.to)))
          expect(codeEdges, key(e)).toContain(key(e));
      }
      // And no edge of the code view leads to a node it does not draw.
      for (const e of code.edges) {
        expect(shown.has(e.from) || pseudo(e.from), key(e)).toBe(true);
        expect(shown.has(e.to) || pseudo(e.to), key(e)).toBe(true);
      }
    },
  );

  it("reads as the source: a loop is its head, an if's branch is an edge labelled with its condition, temporaries are what they hold", () => {
    const { graph, source } = sample("tutor");
    const { nodes } = parseSvg(toSvg(graph, { source }));
    const loop = nodes.find((n) => n.node === "main.for_of_6ddc.iterable");
    expect(loop?.texts[0]).toBe("for (const unit of this.units) {");
    expect(loop?.folded.sort()).toEqual([
      "main.for_of_6ddc.a",
      "main.for_of_6ddc.b",
      "main.for_of_6ddc.counter",
      "main.for_of_6ddc.item",
      "main.for_of_6ddc.step",
    ]);
    // `doUnit.if_bcdb.a` folds into the first statement of its branch.
    expect(nodes.find((n) => n.node === "doUnit.if_bcdb.a.code_561f")?.folded).toEqual(["doUnit.if_bcdb.a"]);
    // `praise` says `$_tmp_5ae2`, the result of `encouragement()`.
    const mermaid = toMermaid(graph, { view: "code", source });
    expect(mermaid).toContain("Correct, $answer is right! {encouragement()}");
    expect(mermaid).toMatch(/-->\|"verdict === #34;correct#34;"\|/);
    // A choice's answer into a loop stays on its edge: ask_ready's "yes" leads into the for…of.
    expect(mermaid).toMatch(
      new RegExp(
        `n${graph.nodes.findIndex((n) => n.name === "ask_ready")} -->\\|"yes"\\| n${graph.nodes.findIndex((n) => n.name === "main.for_of_6ddc.iterable")}\n`,
      ),
    );
    // Without the source the labels still avoid the compiler's names.
    const bare = parseSvg(toSvg(graph)).nodes.find((n) => n.node === "main.for_of_6ddc.iterable");
    expect(bare?.texts[0]).toBe("for…of loop (line 26)");
  });

  it("leaves the raw view as it was: Mermaid, DOT and HTML stay raw unless asked", () => {
    const { graph, source } = sample("algorithms");
    expect(toMermaid(graph)).toBe(toMermaid(graph, { view: "raw", source }));
    expect(toDot(graph)).toBe(toDot(graph, { view: "raw" }));
    expect(toDot(graph, { view: "code", source })).not.toContain("for_of_6c02");
    const raw = toSvg(graph, { view: "raw" });
    expect(raw).not.toContain("data-nodes=");
    for (const n of graph.nodes) expect(raw).toContain(`data-node="${n.name}"`);
  });
});
