import { GenMapping, addMapping, setSourceContent, toEncodedMap, type EncodedSourceMap } from "@jridgewell/gen-mapping";
import type { Graph } from "@autograms/runtime";
import type { NodeSpan } from "./json.js";

export type SourceMapV3 = EncodedSourceMap;

/**
 * A v3 source map from the graph file to the agent source: every line of a node's JSON maps to
 * the start of the statement it came from, and the first line carries the node's name.
 */
export function emitSourceMap(graph: Graph, spans: NodeSpan[], graphFile: string, sourceFile: string, sourceText: string): SourceMapV3 {
  const map = new GenMapping({ file: graphFile });
  setSourceContent(map, sourceFile, sourceText);
  graph.nodes.forEach((node, i) => {
    const span = spans[i]!;
    if (!node.loc) return;
    const original = { line: node.loc.line, column: node.loc.column - 1 };
    for (let line = span.line; line < span.line + span.lines; line++) {
      const generated = { line, column: 4 };
      if (line === span.line) addMapping(map, { generated, source: sourceFile, original, name: node.name });
      else addMapping(map, { generated, source: sourceFile, original });
    }
  });
  return toEncodedMap(map);
}
