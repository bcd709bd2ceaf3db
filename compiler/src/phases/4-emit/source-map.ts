import { GenMapping, addSegment, setSourceContent, toEncodedMap, type EncodedSourceMap } from "@jridgewell/gen-mapping";
import type { Graph } from "@autograms/graph";
import type { NodeSpan } from "./json.js";

export type SourceMapV3 = EncodedSourceMap;

/**
 * A v3 source map from the graph file to the agent source: every line of a node's JSON maps to
 * the start of the statement it came from, and the first line carries the node's name.
 */
export function emitSourceMap(
  graph: Graph,
  spans: NodeSpan[],
  graphFile: string,
  sourceFile: string,
  sourceText: string,
): SourceMapV3 {
  const map = new GenMapping({ file: graphFile });
  setSourceContent(map, sourceFile, sourceText);
  graph.nodes.forEach((node, i) => {
    const span = spans[i]!;
    if (!node.loc) return;
    // gen-mapping's segments count lines from 0 and columns from 0.
    const line = node.loc.line - 1;
    const column = node.loc.column - 1;
    addSegment(map, span.line - 1, 4, sourceFile, line, column, node.name);
    for (let generated = span.line; generated < span.line + span.lines - 1; generated++) {
      addSegment(map, generated, 4, sourceFile, line, column);
    }
  });
  return toEncodedMap(map);
}
