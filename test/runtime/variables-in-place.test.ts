// A run that nobody watches (no trace, no pause hook) writes its own copies of a frame's variables
// in place: it must end exactly where a watched run ends, and never touch the memory it was given.
import { describe, expect, it } from "vitest";
import { Agent, AgentError, type Memory, type PausePoint, type RunOptions } from "@autograms/runtime";
import { TestModel, graph, n } from "./helpers.js";

// Every kind of write a turn makes: code, a variable gone, conditions, transition nodes, calls of
// each kind of function (their frames, their return values assigned), a prompt change.
const g = graph(
  [
    n({ name: "ask", action: "chat_exact", instruction: "Say how many.", transitions: ["init"] }),
    n({
      name: "init",
      action: "code",
      instruction: "let i = 0; let total = 0; let gone = 1; let list = [1]",
      transitions: ["loop"],
    }),
    n({ name: "loop", action: "transition", transitions: ["loop.*"] }),
    n({
      name: "loop.a",
      action: "transition",
      boolean_condition: "i < Number(_last_user_reply)",
      transitions: ["body"],
    }),
    n({ name: "loop.b", action: "transition", transitions: ["after"] }),
    n({
      name: "body",
      action: "code",
      instruction: "total += i * i; i++; list = [...list, i]",
      transitions: ["twice"],
    }),
    n({ name: "twice", action: "function", instruction: "double(i)", assign: "d", transitions: ["sum"] }),
    n({ name: "sum", action: "local_function", instruction: "add(total, d)", assign: "s", transitions: ["loop"] }),
    n({ name: "after", action: "code", instruction: "gone = undefined", transitions: ["share"] }),
    n({ name: "share", action: "global_function", instruction: "publish(total)", transitions: ["tell"] }),
    n({
      name: "tell",
      action: "chat_exact",
      instruction: "i=$i total=$total d=$d s=$s shared=$shared",
      transitions: ["init"],
    }),
    n({ name: "double", action: "code", instruction: "x * 2 + i", transitions: ["return"] }),
    n({ name: "add", action: "transition", transitions: ["return a + b"] }),
    n({ name: "publish", action: "code", instruction: "let shared = v + 1", transitions: ["publish.end"] }),
    n({ name: "publish.end", action: "set_prompt", instruction: "Shared $shared.", transitions: ["return"] }),
  ],
  {
    functions: {
      double: { kind: "function", params: ["x"], entry: "double" },
      add: { kind: "local_function", params: ["a", "b"], entry: "add" },
      publish: { kind: "global_function", params: ["v"], entry: "publish" },
    },
  },
);

const watched: RunOptions = { trace: () => undefined };

async function turns(options: RunOptions): Promise<{ replies: (string | null)[]; memory: Memory }> {
  const agent = new Agent(g, { model: new TestModel() });
  let r = await agent.reply("", undefined, options);
  const replies = [r.reply];
  for (const text of ["3", "0", "5"]) {
    r = await agent.reply(text, r.memory, options);
    replies.push(r.reply);
  }
  return { replies, memory: r.memory };
}

describe("a run nobody watches", () => {
  it("ends where a watched run ends", async () => {
    const alone = await turns({});
    const seen = await turns(watched);
    expect(alone.replies).toEqual(seen.replies);
    expect(alone.replies[1]).toBe("i=3 total=5 d=9 s=14 shared=6");
    expect(JSON.parse(JSON.stringify(alone.memory))).toEqual(JSON.parse(JSON.stringify(seen.memory)));
    expect(alone.memory.stack[0]!.vars.gone).toBeNull();
    expect(alone.memory.stack[0]!.vars.list).toEqual([1, 1, 2, 3, 4, 5]);
  });

  it("leaves the memory it was given as it was, whether the turn succeeds or fails", async () => {
    const agent = new Agent(g, { model: new TestModel() });
    const opened = await agent.reply("", undefined);
    const given = await agent.reply("2", opened.memory);
    const before = JSON.stringify(given.memory);
    const again = await agent.reply("4", given.memory);
    expect(again.reply).toBe("i=4 total=14 d=12 s=26 shared=15");
    expect(JSON.stringify(given.memory)).toBe(before);
    // The same memory played again gives the same turn: nothing of the first play stayed in it.
    expect((await agent.reply("4", given.memory)).reply).toBe(again.reply);
    // A turn that fails after many writes (the step limit) leaves it as it was too.
    const limited = new Agent(g, { model: new TestModel(), limits: { maxSteps: 40 } });
    const err = await limited.reply("100", given.memory).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AgentError);
    expect((err as AgentError).code).toBe("step_limit");
    expect(JSON.stringify(given.memory)).toBe(before);
  });

  it("returns from agent.call what a watched call returns", async () => {
    const agent = new Agent(g, { model: new TestModel() });
    expect(await agent.call("publish", [20])).toBe(await agent.call("publish", [20], watched));
    expect(await agent.call("add", [2, 3])).toBe(5);
  });

  it("is not the watched run: a pause point's frames and a step's changes are those of that step", async () => {
    const steps = graph([
      n({ name: "one", action: "code", instruction: "let a = 1", transitions: ["two"] }),
      n({ name: "two", action: "code", instruction: "a = 2", transitions: ["pass"] }),
      n({ name: "pass", action: "transition", transitions: ["three"] }),
      n({ name: "three", action: "code", instruction: "a = 3", transitions: ["show"] }),
      n({ name: "show", action: "chat_exact", instruction: "a=$a" }),
    ]);
    const points: PausePoint[] = [];
    const changes: unknown[] = [];
    const agent = new Agent(steps, { model: new TestModel() });
    const r = await agent.reply("", undefined, { pause: (at) => void points.push(at) });
    await agent.reply("", undefined, {
      trace: (e) => {
        if (e.kind === "code") changes.push(e.changes);
      },
    });
    expect(r.reply).toBe("a=3");
    // Read once the run is over: each point has the variables as they were when it was reached.
    expect(points.map((p) => [p.node, p.stack[0]!.vars.a, p.stack[0]!.vars._last_state])).toEqual([
      ["one", undefined, undefined],
      ["two", 1, "one"],
      ["pass", 2, "two"],
      ["three", 2, "pass"],
      ["show", 3, "three"],
    ]);
    expect(changes).toEqual([
      [{ name: "a", after: 1 }],
      [{ name: "a", before: 1, after: 2 }],
      [{ name: "a", before: 2, after: 3 }],
    ]);
  });
});
