import { describe, expect, it } from "vitest";
import { validateGraph } from "@autograms/runtime";
import { defaultConfig } from "../../runtime/src/engine/config.js";
import { compileProgram } from "../../runtime/src/engine/program.js";
import { step } from "../../runtime/src/engine/step.js";
import type { RunState, StepResult } from "../../runtime/src/engine/state.js";
import { freshMemory } from "../../runtime/src/memory/seal.js";
import { toRunMemory } from "../../runtime/src/engine/stack.js";
import { deepFreeze, fixture } from "./helpers.js";

describe("the pure step", () => {
  const g = fixture("tutor");
  expect(validateGraph(g).valid).toBe(true);
  const program = compileProgram(g, {
    config: defaultConfig,
    limits: {},
    maxSteps: 1e6,
    maxCallDepth: 100,
    toolNames: [],
  });
  const env = { program, tracing: true };
  const start = (): RunState => ({
    mem: toRunMemory(freshMemory(program)),
    phase: { kind: "enter", node: program.start },
    pending: "",
    mode: "reply",
    steps: 0,
    decisions: [],
  });

  /** Runs steps, answering effects from a fixed script, until the turn's reply. */
  function runTurn(state: RunState): StepResult[] {
    const out: StepResult[] = [];
    let r = step(env, deepFreeze(state), { kind: "continue" });
    for (;;) {
      out.push(r);
      const e = r.effect;
      if (e?.kind === "reply" || e?.kind === "finish") return out;
      const input = !e
        ? { kind: "continue" as const }
        : e.kind === "complete"
          ? { kind: "completed" as const, text: `answer for ${e.node}` }
          : e.kind === "choose"
            ? { kind: "chosen" as const, index: 0 }
            : (() => {
                throw new Error("no tools here");
              })();
      r = step(env, deepFreeze(r.state), input);
    }
  }

  it("never changes the state it is given, and gives the same result for the same input", () => {
    const a = runTurn(start());
    const b = runTurn(start());
    expect(a).toEqual(b);
    expect(a.at(-1)!.effect).toMatchObject({ kind: "reply", text: "Shall we start?" });
  });

  it("asks for model calls as effects instead of making them", () => {
    const s0 = start();
    const turn = runTurn(s0);
    const waiting = turn.at(-1)!.state;
    const r = step(env, deepFreeze(waiting), { kind: "user", text: "yes" });
    const next = step(env, r.state, { kind: "continue" });
    expect(next.effect).toMatchObject({ kind: "choose", node: "ask_ready", choices: ["yes", "no"] });
    expect(next.state.phase).toMatchObject({ kind: "choosing", node: "ask_ready", purpose: "transition" });
  });

  it("refuses an input that does not answer the pending effect", () => {
    const waiting = runTurn(start()).at(-1)!.state;
    expect(() => step(env, waiting, { kind: "completed", text: "x" })).toThrow(/expected a 'user' input/);
  });
});
