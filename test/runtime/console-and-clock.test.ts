// An agent's console.log is a trace event (never memory), and its Date.now() is the turn's time:
// read once per reply() / call(), recorded where code first reads it, given back by a replay.
import { describe, expect, it } from "vitest";
import {
  Agent,
  AgentError,
  DebugSession,
  ScriptedModel,
  replayConversation,
  type Graph,
  type Memory,
  type TraceEvent,
} from "@autograms/runtime";
import { compile } from "@autograms/compiler";
import { TestModel, collect, graph, n } from "./helpers.js";

function compiled(source: string): Graph {
  const { graph: g, diagnostics } = compile(source, { fileName: "clock.ts" });
  expect(diagnostics).toEqual([]);
  return g!;
}

/** A clock that says 1000, 2000, 3000, ... one tick each time it is read. */
function ticking(start = 1000, step = 1000): { clock: () => number; reads: () => number } {
  let reads = 0;
  return { clock: () => start + step * reads++, reads: () => reads };
}

const CLOCKED = `
import { Autogram, chat } from "@autograms/runtime";
import { stamp } from "./tools.js";

export default class Clocked extends Autogram {
  first = 0;
  seen: number[] = [];

  main() {
    this.first = Date.now();
    for (;;) {
      const now = Date.now();
      this.seen.push(now);
      console.log("turn at", now, { seen: this.seen });
      if (Date.now() === now) this.check(Date.now());
      chat(\`It is \${Date.now()}.\`);
    }
  }

  check(at: number) {
    console.warn(\`checked \${at}\`, stamp(at));
  }
}`;

const stamp = (at: unknown) => `stamp ${String(at)}`;

describe("console.log in an agent", () => {
  it("becomes log events, in order, before the event of the step that printed, at its node and line", async () => {
    const g = compiled(CLOCKED);
    const agent = new Agent(g, { model: new TestModel(() => "ok"), clock: () => 5000, tools: { stamp } });
    const { events, trace } = collect();
    await agent.reply("", undefined, { trace });
    const logs = events.filter((e): e is Extract<TraceEvent, { kind: "log" }> => e.kind === "log");
    expect(logs.map((e) => [e.level, e.text, e.loc?.line])).toEqual([
      ["log", "turn at 5000 { seen: [ 5000 ] }", 14],
      // From code that calls a tool, which the loop runs rather than the step.
      ["warn", "checked 5000 stamp 5000", 21],
    ]);
    const at = events.indexOf(logs[0]!);
    expect(events[at + 1]).toMatchObject({
      kind: "code",
      node: logs[0]!.node,
      code: expect.stringContaining("console.log("),
    });
    expect(logs[1]!.stack).toEqual(["main", "check"]);
    expect(logs[0]!.changes).toEqual([]);
  });

  it("changes nothing: memory is the same as the same agent's without the prints", async () => {
    const quiet = compiled(CLOCKED.replace(/^\s*console\.(log|warn)\(.*$/gm, ""));
    const run = async (g: Graph) => {
      const agent = new Agent(g, { model: new TestModel(() => "ok"), clock: ticking().clock, tools: { stamp } });
      const one = await agent.reply("");
      const two = await agent.reply("next", one.memory);
      return [one, two].map((r) => ({ reply: r.reply, stack: stripNodes(r.memory) }));
    };
    expect(await run(compiled(CLOCKED))).toEqual(await run(quiet));
  });

  it("reports what code printed before it failed, then fails the turn", async () => {
    const g = graph([
      n({ name: "boom", action: "code", instruction: "[1, 2].map(x => { console.log('at', x); return x.y.z })" }),
    ]);
    const { events, trace } = collect();
    await expect(new Agent(g, { model: new TestModel() }).reply("", undefined, { trace })).rejects.toMatchObject({
      code: "sandbox",
    });
    expect(events.map((e) => e.kind === "log" && e.text)).toEqual(["at 1"]);
  });
});

describe("Date.now() in an agent", () => {
  it("is one value for the whole turn, and the next turn's is the clock's next reading", async () => {
    const ticks = ticking();
    const agent = new Agent(compiled(CLOCKED), {
      model: new TestModel(() => "ok"),
      clock: ticks.clock,
      tools: { stamp },
    });
    const one = collect();
    const r1 = await agent.reply("", undefined, { trace: one.trace });
    const r2 = await agent.reply("again", r1.memory);
    const r3 = await agent.reply("and again", r2.memory);
    // Read in statements, a condition, a call's argument, a placeholder and a loop: always the turn's time.
    const vars = r3.memory.stack[0]!.vars;
    expect(vars.first).toBe(1000);
    expect(vars.seen).toEqual([1000, 2000, 3000]);
    expect(ticks.reads()).toBe(3);
    // Recorded once per run, where code first read it.
    expect(one.events.filter((e) => e.kind === "time")).toEqual([
      expect.objectContaining({
        kind: "time",
        time: 1000,
        node: expect.stringMatching(/^main\.code_/),
        stack: ["main"],
      }),
    ]);
    const time = one.events.findIndex((e) => e.kind === "time");
    expect(one.events[time + 1]).toMatchObject({
      kind: "code",
      code: "first = Date.now()",
      node: one.events[time]!.node,
    });
  });

  it("takes a run's time from RunOptions.now, and refuses a clock that is not one", async () => {
    const g = graph([
      n({ name: "t", action: "code", instruction: "Date.now()", assign: "t", transitions: ["say"] }),
      n({ name: "say", action: "chat_exact", instruction: "$t" }),
    ]);
    const agent = new Agent(g, { model: new TestModel(), clock: () => 1 });
    expect((await agent.reply("", undefined, { now: 1_800_000_000_000 })).reply).toBe("1800000000000");
    expect((await agent.reply("")).reply).toBe("1");
    expect(await agent.call("missing").catch((e: AgentError) => e.code)).toBe("bad_call");
    const broken = new Agent(g, { model: new TestModel(), clock: () => Number.NaN });
    await expect(broken.reply("")).rejects.toMatchObject({
      code: "bad_input",
      message: expect.stringContaining("the agent's clock returned a finite number"),
    });
    await expect(agent.reply("", undefined, { now: "noon" as unknown as number })).rejects.toMatchObject({
      code: "bad_input",
    });
    expect(() => new Agent(g, { model: new TestModel(), clock: 5 as unknown as () => number })).toThrow(AgentError);
  });

  it("is the call's time in agent.call(), in every evaluation of the call", async () => {
    const g = graph(
      [
        n({ name: "f", action: "code", instruction: "let a = Date.now()", transitions: ["g"] }),
        n({ name: "g", action: "transition", transitions: ["return [a, Date.now()]"] }),
      ],
      { functions: { f: { kind: "local_function", params: [], entry: "f" } } },
    );
    const agent = new Agent(g, { model: new TestModel(), clock: ticking(7).clock });
    expect(await agent.call("f")).toEqual([7, 7]);
    expect(await agent.call("f")).toEqual([1007, 1007]);
  });
});

describe("replaying a conversation that read the time", () => {
  it("gives each turn its recorded time back: same replies, memory and trace under another clock", async () => {
    const g = compiled(CLOCKED);
    const model = () => new ScriptedModel({ complete: ["one", "two", "three"] });
    const recorder = new Agent(g, { model: model(), clock: ticking(1_000_000).clock, tools: { stamp } });
    const events: TraceEvent[] = [];
    const memories: Memory[] = [];
    let memory: Memory | undefined;
    for (const text of ["", "b", "c"]) {
      const r = await recorder.reply(text, memory, { trace: (e) => events.push(e) });
      memory = r.memory;
      memories.push(r.memory);
    }
    const jsonl = events.map((e) => JSON.stringify(e)).join("\n");
    // Another clock altogether: a replay must not read it.
    const replayed = [];
    for await (const turn of replayConversation(g, jsonl, { clock: () => 42, tools: { stamp } })) replayed.push(turn);
    expect(replayed.map((t) => t.memory)).toEqual(memories);
    // Durations aside: the replay waits for nothing.
    const withoutMs = ({ ms: _ms, ...e }: TraceEvent) => e;
    expect(replayed.flatMap((t) => t.events).map(withoutMs)).toEqual(events.map(withoutMs));
    expect(replayed.at(-1)!.memory.stack[0]!.vars.seen).toEqual([1_000_000, 1_001_000, 1_002_000]);

    // The debugger's replay too, with each print shown as it happens.
    const session = new DebugSession(g, { replay: jsonl, clock: () => 42, tools: { stamp } });
    const prints: string[] = [];
    session.on((e) => e.kind === "log" && prints.push(`${e.level}: ${e.text}`));
    await session.run();
    expect(session.state).toBe("ended");
    expect(session.stack()![0]!.vars.seen).toEqual([1_000_000, 1_001_000, 1_002_000]);
    expect(prints).toContain("warn: checked 1001000 stamp 1001000");
    // What the user evaluates sees the time of the turn the session stands in.
    expect(session.evaluate("Date.now() - first")).toBe(2_000);
  });

  it("diverges, at the node, when the recorded time is not given back", async () => {
    const g = compiled(CLOCKED);
    const recorder = new Agent(g, { model: new TestModel(() => "ok"), clock: () => 10, tools: { stamp } });
    const { events, trace } = collect();
    await recorder.reply("", undefined, { trace });
    const edited = events.map((e) => (e.kind === "time" ? { ...e, time: 11 } : e));
    const turns = replayConversation(g, edited, { tools: { stamp } });
    await expect(turns.next()).rejects.toThrow(
      /replay diverged in turn 1, step \d+, at node 'main\.code_\w+' \(code\): its value differs/,
    );
  });
});

/** Memory's frames without what names the nodes (the agents' node names differ with the prints). */
function stripNodes(memory: Memory) {
  return memory.stack.map(({ node: _node, id: _id, vars, ...frame }) => {
    const { _last_state: _s, _last_variable_output: _o, ...rest } = vars;
    return { ...frame, vars: rest };
  });
}
