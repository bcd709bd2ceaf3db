// The debugger's engine: breakpoints on agent lines and functions, stepping by node, over calls
// and out of functions, the stack with its source locations, scopes and values, user input.
import { beforeAll, describe, expect, it } from "vitest";
import {
  DebugSession,
  OfflineModel,
  type SessionEvent,
  type StepMode,
  type Stop,
  type TraceEvent,
} from "@autograms/runtime";
import { record, sampleGraph } from "./support.js";

let tutorTrace: TraceEvent[];
beforeAll(async () => {
  tutorTrace = (await record("tutor")).events;
});

const tutor = () => sampleGraph("tutor");
const lineOf = (name: string) => tutor().nodes.find((n) => n.name === name)!.loc!.line;

interface Run {
  stops: Stop[];
  log: string[];
  ended: SessionEvent | undefined;
}

/** Runs a session, answering each stop with what `onStop` returns (it may inspect the session first). */
async function drive(session: DebugSession, onStop: (stop: Stop, index: number) => StepMode): Promise<Run> {
  const run: Run = { stops: [], log: [], ended: undefined };
  session.on((e) => {
    if (e.kind === "stopped") {
      run.stops.push(e.stop);
      run.log.push(`stop ${e.stop.reason} ${e.stop.node}`);
      const mode = onStop(e.stop, run.stops.length - 1);
      queueMicrotask(() => session.resume(mode));
    } else if (e.kind === "reply") run.log.push(`agent: ${e.text}`);
    else if (e.kind === "user") run.log.push(`user: ${e.text}`);
    else if (e.kind === "ended" || e.kind === "error") run.ended = e;
  });
  await session.run();
  return run;
}

describe("DebugSession on a replay", () => {
  it("stops at a line breakpoint each time the run arrives there, with the function stack and its scopes", async () => {
    const session = new DebugSession(tutor(), { replay: tutorTrace });
    const [bp] = session.setLineBreakpoints([lineOf("pose")]);
    expect(bp).toMatchObject({ requested: 44, line: 44 });
    const seen: unknown[] = [];
    const run = await drive(session, () => {
      seen.push({
        frames: session.frames().map((f) => [f.function, f.node, f.loc?.line]),
        scopes: session.scopes().map((s) => s.name),
        topic: session.evaluate("topic"),
        correct: session.evaluate("this.correct"),
        upper: session.evaluate("topic.toUpperCase()"),
      });
      return "continue";
    });
    expect(run.stops.map((s) => [s.reason, s.node, s.breakpoints.map((b) => b.id)])).toEqual([
      ["breakpoint", "pose", [bp!.id]],
      ["breakpoint", "pose", [bp!.id]],
    ]);
    expect(seen).toEqual([
      {
        frames: [
          ["doUnit", "pose", 44],
          ["main", "main.for_of_6ddc.call_doUnit_c1db", 27],
        ],
        scopes: ["doUnit (global_function)", "main (globals)"],
        topic: "adding fractions",
        correct: 0,
        upper: "ADDING FRACTIONS",
      },
      {
        frames: [
          ["doUnit", "pose", 44],
          ["main", "main.for_of_6ddc.call_doUnit_c1db", 27],
        ],
        scopes: ["doUnit (global_function)", "main (globals)"],
        topic: "multiplying fractions",
        correct: 1,
        upper: "MULTIPLYING FRACTIONS",
      },
    ]);
    expect(run.ended).toMatchObject({ kind: "ended", why: "quit" });
    expect(run.log.filter((l) => l.startsWith("agent:"))).toHaveLength(8);
  });

  it("steps one node, over a call and out of a function", async () => {
    const session = new DebugSession(tutor(), { replay: tutorTrace });
    session.setLineBreakpoints([lineOf("doUnit.call_checkAnswer_6459")]);
    const plan: StepMode[] = ["step", "step", "out", "continue", "next", "continue"];
    const run = await drive(session, (_stop, i) => plan[i]!);
    expect(
      run.stops.map((s) => [s.reason, s.node, session.graph.nodes.find((n) => n.name === s.node)!.loc!.line]),
    ).toEqual([
      ["breakpoint", "doUnit.call_checkAnswer_6459", 45],
      ["step", "checkAnswer", 55], // step goes into the call
      ["step", "checkAnswer.if_ee48.a", 56],
      ["step", "doUnit.if_bcdb.a", 46], // out: back in doUnit, after the call
      ["breakpoint", "doUnit.call_checkAnswer_6459", 45], // the second unit
      ["step", "doUnit.if_bcdb.b", 49], // next: over the call; the answer was wrong
    ]);
    // What ran between two stops comes with the stop.
    expect(run.stops[3]!.events.map((e) => [e.kind, e.node])).toEqual([
      ["pass", "checkAnswer.if_ee48.a"],
      ["transition", "checkAnswer.if_ee48.a"],
      ["code", "checkAnswer.if_ee48.a.return_99cb"],
      ["return", "checkAnswer.if_ee48.a.return_99cb"],
      ["transition", "doUnit.call_checkAnswer_6459"],
    ]);
  });

  it("stops on a function's entry, and at an if's line whichever branch is taken", async () => {
    const session = new DebugSession(tutor(), { replay: tutorTrace });
    const [fn] = session.setFunctionBreakpoints(["encouragement"]);
    expect(fn).toMatchObject({ node: "encouragement", line: 63 });
    session.setLineBreakpoints([46]);
    const run = await drive(session, () => "continue");
    expect(run.stops.map((s) => [s.node, s.breakpoints.map((b) => b.kind)])).toEqual([
      ["doUnit.if_bcdb.a", ["line"]],
      ["encouragement", ["function"]],
      ["doUnit.if_bcdb.b", ["line"]],
      ["encouragement", ["function"]],
    ]);
  });

  it("stops once per arrival at a loop's line, not at each of its nodes", async () => {
    const session = new DebugSession(tutor(), { replay: tutorTrace });
    session.setLineBreakpoints([26]);
    const run = await drive(session, () => "continue");
    expect(run.stops.map((s) => s.node)).toEqual([
      "main.for_of_6ddc.iterable",
      "main.for_of_6ddc.step",
      "main.for_of_6ddc.step",
    ]);
  });

  it("stops on entry, then steps through the prompt nodes", async () => {
    const session = new DebugSession(tutor(), { replay: tutorTrace, stopOnEntry: true });
    const plan: StepMode[] = ["step", "step", "continue"];
    const run = await drive(session, (_s, i) => plan[i]!);
    expect(run.stops.map((s) => [s.reason, s.node])).toEqual([
      ["entry", "main"],
      ["step", "main.set_prompt_178e"],
      ["step", "main.set_user_prompt_b13c"],
    ]);
    expect(run.stops[2]!.events.map((e) => [e.kind, e.node])).toEqual([
      ["prompt", "main.set_prompt_178e"],
      ["transition", "main.set_prompt_178e"],
    ]);
  });

  it("says where the recording ends when the conversation goes on", async () => {
    const cut = tutorTrace.slice(
      0,
      tutorTrace.findIndex(
        (e, i) => i > 0 && e.kind === "user" && tutorTrace.slice(0, i).filter((x) => x.kind === "user").length === 2,
      ),
    );
    const session = new DebugSession(tutor(), { replay: cut });
    const run = await drive(session, () => "continue");
    expect(run.log.filter((l) => l.startsWith("agent:"))).toHaveLength(3);
    expect(run.ended).toMatchObject({ kind: "ended", why: "recording_over" });
  });
});

describe("breakpoint lines", () => {
  it("moves a line without a node to the statement around it, or to the next line with one", () => {
    const session = new DebugSession(tutor(), { replay: tutorTrace });
    const set = session.setLineBreakpoints([21, 33, 52, 1, 500]);
    expect(set.map((b) => [b.requested, b.line])).toEqual([
      [21, 17],
      [33, 35],
      [52, 55],
      [1, 14],
      [500, 67],
    ]);
    expect([...set[0]!.nodes]).toEqual(["ask_ready"]);
    expect(session.setFunctionBreakpoints(["nope"])[0]).toMatchObject({
      node: null,
      message: "the agent has no function 'nope' (it has main, doUnit, checkAnswer, encouragement)",
    });
    expect(session.deleteBreakpoints(set[0]!.id)).toBe(1);
    expect(session.listBreakpoints().map((b) => b.id)).not.toContain(set[0]!.id);
  });
});

describe("DebugSession live", () => {
  it("asks for the user's message when the conversation waits, and resumes in the mode chosen while it waited", async () => {
    const session = new DebugSession(tutor(), { model: new OfflineModel(), inputs: ["yes"] });
    const log: string[] = [];
    session.on((e) => {
      if (e.kind === "reply") log.push(`agent: ${e.text.slice(0, 20)}`);
      if (e.kind === "user") log.push(`user: ${e.text}`);
      if (e.kind === "stopped") {
        log.push(
          `stop ${e.stop.node} [${session
            .frames()
            .map((f) => f.function)
            .join(" < ")}]`,
        );
        session.terminate();
      }
      if (e.kind === "input") {
        log.push(`input at ${session.frames()[0]!.node} ${session.state}`);
        session.resume("step");
        session.send("no questions");
      }
      if (e.kind === "ended") log.push(`ended ${e.why}`);
    });
    await session.run();
    expect(log).toEqual([
      "agent: Hi! I'm your fractio",
      "user: yes",
      "agent: Unit: adding fractio",
      "input at explain input",
      "user: no questions",
      "stop pose [doUnit < main]",
      "ended terminated",
    ]);
  });

  it("reports a failure of the run as an error event", async () => {
    // A recording cut before the first model answer.
    const session = new DebugSession(sampleGraph("recruiter"), {
      replay: (await record("recruiter")).events.slice(0, 2),
    });
    const events: SessionEvent[] = [];
    session.on((e) => events.push(e));
    await session.run();
    expect(events.map((e) => e.kind)).toEqual(["error"]);
    expect(String((events[0] as { error: Error }).error.message)).toContain(
      "node 'greet' asks the model to generate text (chat), but the recording has no model answer left (it had 0)",
    );
  });
});
