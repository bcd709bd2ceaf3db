import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { Agent, AgentError, type ChatModel } from "@autograms/runtime";
import { poolsForTests } from "./pool-worker.js";

/**
 * `new Agent(graph, { isolation })`: the graph's code runs in a sandbox pool's child processes,
 * with the same results as in this process, and code that takes its child down costs that child
 * only.
 */

const { pool } = poolsForTests({ size: 1 });

const model: ChatModel = { complete: async () => "ok", choose: async () => 0 };
const algorithms = JSON.parse(
  readFileSync(fileURLToPath(new URL("../../samples/algorithms/agent.graph.json", import.meta.url)), "utf8"),
);
const recorded = (
  JSON.parse(
    readFileSync(fileURLToPath(new URL("../../samples/algorithms/conversation.json", import.meta.url)), "utf8"),
  ) as {
    calls: { function: string; args: unknown[]; result: unknown }[];
  }
).calls;

/** A graph whose function `probe` runs one code node and returns its value. */
function probe(code: string) {
  return {
    format: "autograms-graph",
    version: 1,
    agent: "Probe",
    start: "main",
    globals: { base: 10 },
    functions: { probe: { kind: "function", params: ["n"], entry: "probe" } },
    tools: { lookup: { module: "./tools.js", export: "lookup" } },
    nodes: [
      { name: "main", action: "transition", transitions: ["quit"] },
      { name: "probe", action: "code", instruction: code, transitions: ["return"] },
    ],
  };
}

describe("isolation: the agent's code in child processes", () => {
  test("gives the results it gives in this process", async () => {
    const isolated = new Agent(algorithms, { model, isolation: pool() });
    const inline = new Agent(algorithms, { model });
    for (const call of recorded) {
      const value = await isolated.call(call.function, call.args as never[]);
      expect(value, call.function).toEqual(call.result);
      expect(value).toEqual(await inline.call(call.function, call.args as never[]));
    }
  });

  test("tools run in this process, called from the child", async () => {
    const seen: unknown[] = [];
    const agent = new Agent(probe("lookup(n) + base"), {
      model,
      isolation: pool(),
      tools: { lookup: async (n: number) => (seen.push(n), n * 2) },
    });
    expect(await agent.call("probe", [4])).toBe(18);
    expect(seen).toEqual([4]);
  });

  test("code that takes its child process down fails its node; this process and the pool go on", async () => {
    // The pool's limits raised far beyond its child's memory: only the process boundary stops this.
    const sandbox = pool({
      memoryLimitMb: 128,
      timeoutMs: 120_000,
      maxTimeMs: 60_000,
      maxSteps: 1e12,
      maxAllocation: 1e12,
      maxStringLength: 2 ** 29,
      maxArrayLength: 1e9,
    });
    const agent = new Agent(
      probe("Array.from({ length: 64 }, (_, i) => 'x'.repeat(2 ** 24) + i).map(s => s.toUpperCase()).length"),
      {
        model,
        isolation: sandbox,
        tools: { lookup: () => 0 },
      },
    );
    const error = await agent.call("probe", [1]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).message, (error as AgentError).message).toMatch(/maxAllocation/);
    const next = new Agent(probe("n + base"), { model, isolation: sandbox, tools: { lookup: () => 0 } });
    expect(await next.call("probe", [5])).toBe(15);
  });

  test('"process" makes a pool of the agent\'s own, which close() stops', async () => {
    const agent = new Agent(probe("n + base"), { model, isolation: "process", tools: { lookup: () => 0 } });
    // The pool is made when code first runs; closing an agent that ran nothing is fine.
    await agent.close();
    expect(() => new Agent(probe("1"), { model, isolation: "elsewhere" as never, tools: { lookup: () => 0 } })).toThrow(
      /isolation must be/,
    );
  });
});
