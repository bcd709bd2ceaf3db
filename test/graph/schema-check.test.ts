// The graph's JSON Schema is compiled ahead of time (graph/scripts/schema-check.mjs, run by the
// build and the tests' setup, writes graph/src/schema-check.generated.ts): what it finds
// must be what Ajv compiling the schema now finds.
import { Ajv2020 } from "ajv/dist/2020.js";
import { expect, it } from "vitest";
import { graphSchema, validateGraph } from "@autograms/runtime";

it("finds the errors Ajv finds compiling the schema now", () => {
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false });
  const now = ajv.compile(graphSchema);
  const graph = {
    format: "autograms-graph",
    version: 1,
    agent: "A",
    globals: [],
    functions: [],
    nodes: [{ name: "n", action: "chat", instruction: "hi", transitions: [] }],
  };
  const bad = [
    {},
    { ...graph, version: 2 },
    { ...graph, nodes: [{ name: 3, action: "chat", transitions: "x" }] },
    { ...graph, extra: true, nodes: [{ ...graph.nodes[0], loc: { line: "one" } }] },
  ];
  for (const value of [graph, ...bad]) {
    const valid = now(value);
    const result = validateGraph(value);
    const messages = (now.errors ?? []).slice(0, 50).map((e) => `${e.instancePath || "graph"} ${e.message}`);
    if (valid) expect(result.errors.filter((e) => !e.node)).toEqual([]);
    else expect(result.errors.map((e) => e.message)).toEqual(messages);
  }
});
