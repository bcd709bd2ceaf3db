// Which code the step runs itself and which it hands to the loop with the tools bound: the
// sandbox says which names the code looks up among the tools, not a pattern over its text.
import { describe, expect, it } from "vitest";
import { Agent, AgentError, type GraphNode } from "@autograms/runtime";
import { defaultConfig } from "../../runtime/src/engine/config.js";
import { compileProgram } from "../../runtime/src/engine/program.js";
import { step } from "../../runtime/src/engine/step.js";
import { freshMemory } from "../../runtime/src/memory/seal.js";
import { toRunMemory } from "../../runtime/src/engine/stack.js";
import { TestModel, graph, n } from "./helpers.js";

const tools = { lookup: { module: "./tools.js", export: "lookup" } };

/** The first step of a graph whose only node runs `code`, with variables `xs` and `o`. */
function firstStep(code: string) {
  const g = graph(
    [
      n({
        name: "init",
        action: "code",
        instruction: 'let xs = [1, 2]; let o = { ["look" + "up"]: 3 }',
        transitions: ["c"],
      }),
      n({ name: "c", action: "code", instruction: code }),
    ],
    { tools },
  );
  const program = compileProgram(g, {
    config: defaultConfig,
    limits: undefined,
    maxSteps: 100,
    maxCallDepth: 100,
    toolNames: ["lookup"],
    toolDefinitions: {},
  });
  const env = { program, tracing: false };
  let r = step(
    env,
    {
      mem: toRunMemory(freshMemory(program)),
      phase: { kind: "enter", node: "init" },
      pending: null,
      mode: "reply",
      steps: 0,
      decisions: [],
    },
    { kind: "continue" },
  );
  r = step(env, r.state, { kind: "continue" });
  return step(env, r.state, { kind: "continue" });
}

describe("code that uses a tool", () => {
  it.each(["const r = lookup(xs[0])", "xs.map((x) => lookup(x))", "typeof lookup", "xs.length > 1 && lookup?.(1)"])(
    "is handed to the loop: %s",
    (code) => {
      expect(firstStep(code).effect).toMatchObject({ kind: "evaluate", node: "c", code });
    },
  );

  it.each([
    ['"lookup(x) is a tool call"', "lookup(x) is a tool call"],
    ["o.lookup + 1", 4],
    ["({ lookup: 1 }).lookup", 1],
    ["xs.map((lookup) => lookup * 2)", [2, 4]],
    ["`${o.lookup}` + '$lookup'", "3$lookup"],
  ])("runs in the step when the tool's name is only text, a key or a parameter: %s", (code, value) => {
    const r = firstStep(code);
    expect(r.effect).toBeNull();
    expect(r.state.phase).toEqual({ kind: "route", node: "c", output: value, interject: false });
  });

  it("refuses code the sandbox cannot parse when the agent is made, at its node", () => {
    const g = graph(
      [
        n({
          name: "c",
          action: "code",
          instruction: "lookup(",
          loc: { line: 3, column: 5, endLine: 3, endColumn: 12 },
        }),
      ],
      { tools },
    );
    let failed: unknown;
    try {
      new Agent(g, { model: new TestModel(), tools: { lookup: () => 1 } });
    } catch (e) {
      failed = e;
    }
    expect(failed).toBeInstanceOf(AgentError);
    expect(failed).toMatchObject({ code: "invalid_graph" });
    expect((failed as AgentError).message).toMatch(
      /<graph>:3:5: node 'c': code 'lookup\(' is not code the evaluator runs: /,
    );
  });

  it("calls the tool, with the answer the code asked for", async () => {
    const g = graph(
      [
        n({
          name: "c",
          action: "code",
          instruction: "[1, 2].map((x) => lookup(x))",
          assign: "got",
          transitions: ["say"],
        }),
        n({ name: "say", action: "chat_exact", instruction: "$got" } as GraphNode),
      ],
      { tools },
    );
    const agent = new Agent(g, { model: new TestModel(), tools: { lookup: async (x: number) => x * 10 } });
    expect((await agent.reply("")).reply).toBe("[10,20]");
  });
});
