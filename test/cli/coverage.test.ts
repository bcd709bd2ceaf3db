// Coverage from traces: which lines of the agent source the runs reached, as lcov and per function.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compile } from "@autograms/compiler";
import { Agent, OfflineModel, type Graph } from "@autograms/runtime";
import {
  NodeVisits,
  coverageSummary,
  functionCoverage,
  functionsOf,
  lineCounts,
  toLcov,
} from "../../cli/src/trace/coverage.js";

const fileName = "test/cli/fixtures/branches/agent.ts";
const graph = compile(readFileSync(join(import.meta.dirname, "fixtures/branches/agent.ts"), "utf8"), { fileName })
  .graph as Graph;

async function visitsOf(...runs: ((agent: Agent, visits: NodeVisits) => Promise<unknown>)[]): Promise<NodeVisits> {
  const visits = new NodeVisits();
  const agent = new Agent(graph, { model: new OfflineModel() });
  for (const run of runs) await run(agent, visits);
  return visits;
}

const classify = (n: number) => (agent: Agent, visits: NodeVisits) =>
  agent.call("classify", [n], { trace: visits.sink });
const conversation = (agent: Agent, visits: NodeVisits) => agent.reply("", undefined, { trace: visits.sink });

describe("coverage", () => {
  it("puts each node in its function: main first, then the functions in source order", () => {
    const functions = functionsOf(graph);
    expect(functions.map((f) => [f.name, f.line, f.entry])).toEqual([
      ["main", 5, "main"],
      ["classify", 9, "classify"],
      ["unused", 22, "unused"],
    ]);
    expect(functions.flatMap((f) => f.nodes)).toEqual(graph.nodes);
    for (const f of functions)
      expect(f.nodes.every((n) => n.name === f.name || n.name.startsWith(`${f.name}.`) || n.name === "say")).toBe(true);
  });

  it("counts an else branch's lines, the test of the if that failed, and a loop's body by its own nodes", async () => {
    const lines = lineCounts(graph, await visitsOf(classify(3)));
    expect(Object.fromEntries(lines)).toEqual({
      5: 0,
      6: 0,
      9: 1,
      10: 1,
      11: 1, // the test ran, though its branch was not taken
      12: 0,
      13: 1,
      14: 1,
      15: 1,
      16: 4,
      17: 3,
      18: 4, // the loop's test ran four times, its body three
      19: 1,
      22: 0,
      23: 0,
    });
    const big = lineCounts(graph, await visitsOf(classify(30)));
    expect([11, 12, 13, 14, 15].map((l) => big.get(l))).toEqual([1, 1, 0, 0, 0]);
  });

  it("adds up several runs, and counts a function's calls by its entry", async () => {
    const visits = await visitsOf(classify(3), classify(30), conversation);
    const lcov = toLcov(graph, visits, fileName);
    expect(lcov).toMatch(
      /^TN:\nSF:test\/cli\/fixtures\/branches\/agent\.ts\nFN:5,main\nFN:9,classify\nFN:22,unused\nFNDA:1,main\nFNDA:3,classify\nFNDA:0,unused\nFNF:3\nFNH:2\n/,
    );
    expect(lcov).toContain("\nDA:6,1\nDA:9,3\nDA:10,3\nDA:11,3\nDA:12,1\nDA:13,2\n");
    expect(lcov).toMatch(/\nDA:22,0\nDA:23,0\nLF:15\nLH:13\nend_of_record\n$/);
  });

  it("summarizes nodes visited and lines hit per function", async () => {
    const visits = await visitsOf(classify(3));
    const rows = functionCoverage(graph, visits);
    expect(rows).toEqual([
      { name: "main", nodes: { visited: 0, total: 3 }, lines: { hit: 0, total: 2 } },
      // Not run: the if's then-branch (its test node and its assignment), so line 12 is not hit.
      { name: "classify", nodes: { visited: 12, total: 14 }, lines: { hit: 10, total: 11 } },
      { name: "unused", nodes: { visited: 0, total: 2 }, lines: { hit: 0, total: 2 } },
    ]);
    expect(coverageSummary(graph, visits)).toBe(
      [
        "  function  nodes          lines",
        "  main          0/3   0%       0/2   0%",
        "  classify    12/14  85%     10/11  90%",
        "  unused        0/2   0%       0/2   0%",
        "  all         12/19  63%     10/15  66%",
        "",
      ].join("\n"),
    );
  });
});
