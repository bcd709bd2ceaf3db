import { describe, expect, it } from "vitest";
import { SourceMap } from "node:module";
import { compile, graphToJson } from "@autograms/compiler";
import { existsSync, readdirSync } from "node:fs";
import { fixtureSource, fixturesDir } from "./support/compile.js";

describe("the source map", () => {
  const source = fixtureSource("design-example");
  const { graph, sourceMap } = compile(source, { fileName: "samples/tutor/agent.ts" });
  const json = graphToJson(graph!);
  const lines = json.split("\n");
  const map = new SourceMap(sourceMap as unknown as ConstructorParameters<typeof SourceMap>[0]);

  it("is a v3 map of the graph file, naming the agent file and carrying its text", () => {
    expect(sourceMap).toMatchObject({
      version: 3,
      file: "agent.graph.json",
      sources: ["agent.ts"],
      sourcesContent: [source],
    });
    expect(JSON.parse(json)).toEqual(graph);
  });

  it("maps every line of every node's JSON to the statement the node comes from", () => {
    let checked = 0;
    graph!.nodes.forEach((node) => {
      const first = lines.findIndex((l) => l === `      "name": ${JSON.stringify(node.name)},`) - 1;
      expect(lines[first]).toBe("    {");
      expect(lines.slice(first + 1).find((l) => l.startsWith('      "loc": '))).toMatch(
        /^ {6}"loc": \{ "line": \d+, "column": \d+, "endLine": \d+, "endColumn": \d+ \},$/,
      );
      const last = lines.findIndex((l, i) => i > first && (l === "    }," || l === "    }"));
      for (const line of [first, first + 1, last]) {
        const entry = map.findEntry(line, 4) as {
          originalLine: number;
          originalColumn: number;
          originalSource: string;
          name?: string;
        };
        expect(entry.originalLine + 1, `${node.name} line ${line}`).toBe(node.loc!.line);
        expect(entry.originalColumn + 1).toBe(node.loc!.column);
        checked++;
      }
    });
    expect(checked).toBe(graph!.nodes.length * 3);
  });

  it.each(readdirSync(fixturesDir).filter((d) => existsSync(`${fixturesDir}/${d}/expected.graph.json`)))(
    "%s: every node's mapping starts on its own block's first line",
    (name) => {
      const { graph: g, sourceMap: m } = compile(fixtureSource(name), { fileName: `${fixturesDir}/${name}/input.ts` });
      const text = graphToJson(g!).split("\n");
      const consumer = new SourceMap(m as unknown as ConstructorParameters<typeof SourceMap>[0]);
      for (const node of g!.nodes) {
        const line = text.indexOf(`      "name": ${JSON.stringify(node.name)},`) - 1;
        expect(text[line]).toBe("    {");
        expect((consumer.findEntry(line, 4) as { name?: string }).name).toBe(node.name);
      }
    },
  );

  it("puts a loc on every node, inside the file", () => {
    const sourceLines = source.split("\n");
    for (const node of graph!.nodes) {
      expect(node.loc, node.name).toBeDefined();
      const { line, column, endLine, endColumn } = node.loc!;
      expect(line).toBeLessThanOrEqual(endLine);
      expect(column).toBeLessThanOrEqual(sourceLines[line - 1]!.length + 1);
      expect(endColumn).toBeLessThanOrEqual(sourceLines[endLine - 1]!.length + 1);
    }
  });
});
