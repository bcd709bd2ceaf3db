// The recursive agent of the recursion tests (recursion.test.ts, recursion-cost.slow.ts).
import type { FunctionKind, Graph } from "@autograms/runtime";

/** depth(n): n calls deep below the first, returning n. */
export function depthGraph(kind: FunctionKind = "local_function"): Graph {
  return {
    format: "autograms-graph",
    version: 1,
    agent: "Depth",
    start: "main",
    globals: {},
    functions: { depth: { kind, params: ["n"], entry: "depth" } },
    nodes: [
      { name: "main", action: "transition", transitions: ["quit"] },
      { name: "depth", action: "transition", transitions: ["depth.*"] },
      { name: "depth.a", action: "transition", boolean_condition: "n <= 0", transitions: ["return 0"] },
      {
        name: "depth.b",
        action: kind,
        instruction: "depth(n - 1)",
        assign: "r",
        transitions: ["return r + 1"],
        loc: { line: 7, column: 5, endLine: 7, endColumn: 20 },
      },
    ],
  } as Graph;
}
