// AG-UI: the translation of a run's events (every event valid under @ag-ui/core's own schemas, in
// the protocol's order, state deltas that add up to the agent's variables). Over HTTP: ag-ui-http.test.ts.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { EventType } from "@ag-ui/core";
import { EventSchemas } from "@ag-ui/core/schemas";
import {
  Agent,
  ScriptedModel,
  replyOf,
  type Graph,
  type JsonValue,
  type Memory,
  type TraceEvent,
} from "@autograms/runtime";
import type { RunEvent } from "@autograms/server";
import {
  AgUiTranslator,
  agentVariables,
  variablesPatch,
  type AgUiEvent,
  type Variables,
} from "../../server/src/protocols/ag-ui.js";
import { applyPatch, checkOrder } from "./support/ag-ui-checks.js";

const ROOT = join(import.meta.dirname, "..", "..");
const recruiter = JSON.parse(readFileSync(join(ROOT, "samples/recruiter/agent.graph.json"), "utf8")) as Graph;
const conversation = JSON.parse(readFileSync(join(ROOT, "samples/recruiter/conversation.json"), "utf8")) as {
  turns: { user: string; complete?: string[]; choose?: string[] }[];
};

interface RecordedRun {
  events: RunEvent[];
  before: Variables;
  after: Variables;
  reply: string | null;
}

/**
 * The recruiter sample's conversation as the server streams it: each turn's trace events as steps,
 * the reply's text in small deltas just before the step that ends with it (as a streaming model
 * gives it), and optionally a withdrawn first attempt at the reply.
 */
async function recruiterRuns(options: { withdrawAt?: number; whole?: boolean } = {}): Promise<RecordedRun[]> {
  const t = conversation.turns;
  const agent = new Agent(recruiter, {
    model: new ScriptedModel({
      complete: t.flatMap((x) => x.complete ?? []),
      choose: t.flatMap((x) => x.choose ?? []),
    }),
  });
  const runs: RecordedRun[] = [];
  let memory: Memory | null = null;
  for (const [i, turn] of t.entries()) {
    const trace: TraceEvent[] = [];
    const r = await agent.reply(turn.user, memory ?? undefined, { trace: (e) => trace.push(structuredClone(e)) });
    const events: RunEvent[] = [
      { type: "run-start", threadId: "t1", runId: `r${i}`, messageId: `m${i}`, user: turn.user, turn: i + 1 },
    ];
    for (const e of trace) {
      const reply = replyOf(e);
      if (reply !== undefined && !options.whole) {
        if (options.withdrawAt === i)
          events.push(
            { type: "text-delta", node: e.node, delta: "A first try that " },
            { type: "text-reset", node: e.node },
          );
        for (const piece of reply.match(/.{1,7}/gs) ?? [])
          events.push({ type: "text-delta", node: e.node, delta: piece });
      }
      const { messages: _prompts, ...stored } = e as TraceEvent & { messages?: unknown };
      events.push({ type: "step", event: stored as never });
    }
    // A model that does not stream: the server sends the reply whole once the turn has it.
    const replyNode = [...trace].reverse().find((e) => replyOf(e) !== undefined)?.node;
    if (options.whole && r.reply !== null) events.push({ type: "text-delta", node: replyNode!, delta: r.reply });
    events.push({ type: "run-finish", turn: i + 1, reply: r.reply, done: r.done });
    runs.push({
      events,
      before: agentVariables(memory, recruiter.globals as Variables),
      after: agentVariables(r.memory, recruiter.globals as Variables),
      reply: r.reply,
    });
    memory = r.memory;
  }
  return runs;
}

/** The variables the translator is given with an event: before the turn at run-start, after it at run-finish. */
const variablesFor = (run: RecordedRun, e: RunEvent) =>
  e.type === "run-start" ? run.before : e.type === "run-finish" ? run.after : undefined;

function translate(run: RecordedRun, runId = "run-1"): AgUiEvent[] {
  const translator = new AgUiTranslator({ threadId: "t1", runId });
  return run.events.flatMap((e) => translator.translate(e, variablesFor(run, e)));
}

const textOf = (events: AgUiEvent[], messageId: string) =>
  events
    .filter((e) => e.type === EventType.TEXT_MESSAGE_CONTENT && e.messageId === messageId)
    .map((e) => (e as { delta: string }).delta)
    .join("");

describe("the AG-UI translation of a run", () => {
  it("emits only events that @ag-ui/core's schemas accept, in the protocol's order, for every turn of a conversation", async () => {
    for (const run of await recruiterRuns()) {
      const events = translate(run);
      for (const e of events) expect(EventSchemas.safeParse(e).error?.issues, JSON.stringify(e)).toBeUndefined();
      expect(checkOrder(events)).toEqual([]);
      expect(events[0]).toEqual({ type: EventType.RUN_STARTED, threadId: "t1", runId: "run-1" });
      expect(events[1]).toEqual({ type: EventType.STATE_SNAPSHOT, snapshot: run.before });
      expect(events.at(-1)).toMatchObject({
        type: EventType.RUN_FINISHED,
        threadId: "t1",
        runId: "run-1",
        result: { reply: run.reply },
      });
    }
  });

  it("has one step per node visit, named after the node, with the reply's text inside its node's step", async () => {
    const [, second] = await recruiterRuns();
    const events = translate(second!);
    const steps = events
      .filter((e) => e.type === EventType.STEP_STARTED)
      .map((e) => (e as { stepName: string }).stepName);
    // A node's visit: its events up to the one that leaves it (a transition, return or quit).
    const trace = second!.events.flatMap((e) => (e.type === "step" ? [e.event] : []));
    const leaves = (k: string) => ["transition", "return", "quit"].includes(k);
    const visits = trace
      .filter((e, i) => i === 0 || e.node !== trace[i - 1]!.node || leaves(trace[i - 1]!.kind))
      .map((e) => e.node);
    expect(steps).toEqual(visits);
    expect(steps.length).toBeLessThan(trace.length);
    const start = events.findIndex((e) => e.type === EventType.TEXT_MESSAGE_START);
    const lastStep = events
      .slice(0, start)
      .filter((e) => e.type === EventType.STEP_STARTED)
      .at(-1) as { stepName: string };
    expect(lastStep.stepName).toBe((second!.events.find((e) => e.type === "text-delta") as { node: string }).node);
    const messageId = (events[start] as { messageId: string }).messageId;
    expect(events.filter((e) => e.type === EventType.TEXT_MESSAGE_CONTENT).length).toBeGreaterThan(3);
    expect(textOf(events, messageId)).toBe(second!.reply);
  });

  it("sends state deltas that, applied to the snapshot as JSON Patch, give the agent's variables after every turn", async () => {
    const runs = await recruiterRuns();
    let state: unknown = null;
    const seen = new Set<string>();
    for (const run of runs) {
      for (const e of translate(run)) {
        if (e.type === EventType.STATE_SNAPSHOT) state = structuredClone(e.snapshot);
        if (e.type === EventType.STATE_DELTA) {
          state = applyPatch(state, e.delta);
          for (const op of e.delta) seen.add(op.path);
        }
      }
      expect(state).toEqual(run.after);
    }
    // The steps' own deltas already reach them: the run's last delta only catches up a frame that returned.
    for (const run of runs) {
      const translator = new AgUiTranslator({ threadId: "t1", runId: "r" });
      let streamed: unknown = null;
      for (const e of run.events.flatMap((x) =>
        translator.translate(x, x.type === "run-start" ? run.before : undefined),
      )) {
        if (e.type === EventType.STATE_SNAPSHOT) streamed = structuredClone(e.snapshot);
        if (e.type === EventType.STATE_DELTA) streamed = applyPatch(streamed, e.delta);
      }
      expect(streamed).toEqual(run.after);
    }
    // The variables the recruiter's main code writes as it goes, each sent as it changed.
    expect([...seen].sort()).toEqual(expect.arrayContaining(["/background", "/note", "/outcome"]));
    expect(runs.at(-1)!.after).toMatchObject({ outcome: "expects more than the range, but is flexible" });
  });

  it("withdraws a reply being generated again: the first message ends, a CUSTOM event names it, a new message carries the reply", async () => {
    const runs = await recruiterRuns({ withdrawAt: 2 });
    const events = translate(runs[2]!);
    expect(checkOrder(events)).toEqual([]);
    const starts = events
      .filter((e) => e.type === EventType.TEXT_MESSAGE_START)
      .map((e) => (e as { messageId: string }).messageId);
    expect(starts).toHaveLength(2);
    expect(textOf(events, starts[0]!)).toBe("A first try that ");
    expect(events).toContainEqual({
      type: EventType.CUSTOM,
      name: "autograms.text-reset",
      value: { messageId: starts[0], node: expect.any(String) },
    });
    expect(textOf(events, starts[1]!)).toBe(runs[2]!.reply);
  });

  it("sends a reply that was not streamed, given whole after its step, inside the step of its node", async () => {
    for (const run of await recruiterRuns({ whole: true })) {
      const events = translate(run);
      expect(checkOrder(events)).toEqual([]);
      const starts = events.filter((e) => e.type === EventType.TEXT_MESSAGE_START) as { messageId: string }[];
      expect(starts).toHaveLength(1);
      expect(textOf(events, starts[0]!.messageId)).toBe(run.reply);
    }
  });

  it("ends a failed run with RUN_ERROR, closing the open message and step first and never finishing", async () => {
    const [, second] = await recruiterRuns();
    const cut = second!.events.findIndex((e) => e.type === "text-delta") + 2;
    const failed: RecordedRun = {
      ...second!,
      events: [
        ...second!.events.slice(0, cut),
        { type: "run-error", code: "model_error", message: "the model stopped answering" },
      ],
    };
    const events = translate(failed);
    for (const e of events) expect(EventSchemas.safeParse(e).success).toBe(true);
    expect(checkOrder(events)).toEqual([]);
    expect(events.at(-1)).toEqual({
      type: EventType.RUN_ERROR,
      code: "model_error",
      message: "the model stopped answering",
    });
    expect(events.some((e) => e.type === EventType.RUN_FINISHED)).toBe(false);
  });

  it("names the client's run id in RUN_STARTED and RUN_FINISHED (by default the server's), and makes message ids from the server's", async () => {
    const [, second] = await recruiterRuns();
    const serverRun = (second!.events[0] as { runId: string }).runId;
    for (const [given, named] of [
      ["client-run", "client-run"],
      [undefined, serverRun],
    ] as const) {
      const translator = new AgUiTranslator({ threadId: "t1", ...(given ? { runId: given } : {}) });
      const events = second!.events.flatMap((e) => translator.translate(e, variablesFor(second!, e)));
      expect([events[0], events.at(-1)]).toMatchObject([
        { type: EventType.RUN_STARTED, runId: named },
        { type: EventType.RUN_FINISHED, runId: named },
      ]);
      expect(events.find((e) => e.type === EventType.TEXT_MESSAGE_START)).toMatchObject({
        messageId: `${serverRun}-m1`,
      });
    }
  });

  it("escapes variable names in JSON Pointers and removes variables that are gone", () => {
    const from: Variables = { "a/b": 1, "c~d": 2, gone: true, same: [1] };
    const to: Variables = { "a/b": 3, "c~d": 2, same: [1], fresh: { x: null } };
    const ops = variablesPatch(from, to);
    expect(ops).toEqual([
      { op: "replace", path: "/a~1b", value: 3 },
      { op: "add", path: "/fresh", value: { x: null } },
      { op: "remove", path: "/gone" },
    ]);
    expect(applyPatch(structuredClone(from), ops)).toEqual(to);
  });

  it("takes the variables of every frame, the inner winning, without the runtime's automatic ones and the compiler's temporaries", () => {
    const memory = {
      stack: [
        { vars: { _last_user_reply: "hi", _loop_a1_i: 0, score: 2, topic: "a" } },
        { vars: { topic: "b", answer: "3/4" } },
      ],
    } as unknown as Memory;
    expect(agentVariables(memory, {})).toEqual({ score: 2, topic: "b", answer: "3/4" });
    expect(agentVariables(null, { units: ["a"], _tmp: 1 })).toEqual({ units: ["a"] });
  });
});
