// reply({ deadlineMs }) and reply({ signal }): nothing a model, a tool or a loop of nodes does
// holds a turn past its deadline, and the memory given to the turn stays valid to retry from.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  Agent,
  AgentError,
  OpenAIModel,
  ScriptedModel,
  defineTool,
  type ChatModel,
  type ChoiceRequest,
  type CompletionRequest,
  type Memory,
} from "@autograms/runtime";
import { graph, n } from "./helpers.js";
import { Deadline } from "../../runtime/src/agent/deadline.js";
import { startOpenAIServer, type OpenAIServer } from "../support/openai-server.js";

const never = new Promise<never>(() => undefined);

/** A model whose `complete` does what `answer` says, recording the signal each call got. */
function modelThat(
  answer: (req: CompletionRequest) => Promise<string>,
): ChatModel & { signals: (AbortSignal | undefined)[] } {
  const signals: (AbortSignal | undefined)[] = [];
  return {
    signals,
    complete: (req) => (signals.push(req.signal), answer(req)),
    choose: async (_req: ChoiceRequest) => 0,
  };
}

const talk = graph([
  n({ name: "hello", action: "chat_exact", instruction: "Hello.", transitions: ["talk"] }),
  n({ name: "talk", action: "chat", instruction: "Answer the user.", transitions: ["talk"] }),
]);

/** A loop of nodes that never waits for anything. */
const spin = graph([
  n({ name: "start", action: "code", instruction: "let i = 0", transitions: ["spin"] }),
  n({ name: "spin", action: "code", instruction: "i = i + 1", transitions: ["spin"] }),
]);

async function firstMemory(): Promise<Memory> {
  return (await new Agent(talk, { model: modelThat(async () => "unused") }).reply("")).memory;
}

/** The AgentError a run ends with, and how long it took. */
async function failed(p: Promise<unknown>): Promise<{ err: AgentError; ms: number }> {
  const started = Date.now();
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AgentError);
  return { err: err as AgentError, ms: Date.now() - started };
}

describe("a turn's deadline", () => {
  it("ends a turn whose model never answers (and ignores the signal); the memory is still good", async () => {
    const memory = await firstMemory();
    const stuck = modelThat(() => never);
    const { err, ms } = await failed(new Agent(talk, { model: stuck }).reply("hi", memory, { deadlineMs: 300 }));
    expect(err.code).toBe("deadline");
    expect(err.node).toBe("talk");
    expect(err.message).toBe(
      "node 'talk' (no source location): the turn did not finish within its deadline of 300 ms (deadlineMs); the memory given to this turn is unchanged",
    );
    expect(ms).toBeLessThan(3_000);
    expect(stuck.signals[0]?.aborted).toBe(true);
    const again = await new Agent(talk, { model: modelThat(async () => "at last") }).reply("hi", memory, {
      deadlineMs: 5_000,
    });
    expect(again.reply).toBe("at last");
  });

  it("ends a turn held by a tool that never returns", async () => {
    const g = graph(
      [
        n({ name: "c", action: "code", instruction: "lookup(1)", assign: "got", transitions: ["say"] }),
        n({ name: "say", action: "chat_exact", instruction: "$got" }),
      ],
      { tools: { lookup: { module: "./tools.js", export: "lookup" } } },
    );
    const agent = new Agent(g, { model: modelThat(async () => "x"), tools: { lookup: () => never } });
    const { err, ms } = await failed(agent.reply("", undefined, { deadlineMs: 300 }));
    expect([err.code, err.node]).toEqual(["deadline", "c"]);
    expect(ms).toBeLessThan(3_000);
  });

  it("tells a tool the model called that nobody waits for it any more (its run's signal)", async () => {
    let told: AbortSignal | undefined;
    const lookup = defineTool({
      name: "lookup",
      description: "Looks it up.",
      parameters: { type: "object", properties: {} },
      run: (_args: object, options?: { signal?: AbortSignal }) => ((told = options?.signal), never),
    });
    const g = graph(
      [n({ name: "look", action: "thought", instruction: "Look it up.", tools: ["lookup"], transitions: ["look"] })],
      { tools: { lookup: { module: "./tools.js", export: "lookup" } } },
    );
    const model = new ScriptedModel({ tools: [{ toolCalls: [{ name: "lookup", arguments: {} }] }] });
    const { err, ms } = await failed(
      new Agent(g, { model, tools: { lookup } }).reply("", undefined, { deadlineMs: 300 }),
    );
    expect([err.code, err.node]).toEqual(["deadline", "look"]);
    expect(ms).toBeLessThan(3_000);
    expect(told?.aborted).toBe(true);
  });

  it("ends a loop of nodes that never waits (the clock is read between steps)", async () => {
    const { err, ms } = await failed(
      new Agent(spin, { model: modelThat(async () => "x") }).reply("", undefined, { deadlineMs: 300 }),
    );
    expect(err.code).toBe("deadline");
    expect(err.node).toMatch(/^(start|spin)$/);
    expect(ms).toBeLessThan(3_000);
  });

  it("ends a loop of nodes whose pause hook returns nothing (no wait between its steps)", async () => {
    let pauses = 0;
    const { err, ms } = await failed(
      new Agent(spin, { model: modelThat(async () => "x") }).reply("", undefined, {
        deadlineMs: 300,
        pause: () => void pauses++,
      }),
    );
    expect([err.code, err.node]).toEqual(["deadline", "spin"]);
    expect(ms).toBeLessThan(3_000);
    expect(pauses).toBeGreaterThan(100);
  });

  it("ends a loop of nodes at its caller's signal, seen when the loop lets timers run", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    let entered = 0;
    // As a server's turn does: most pauses return nothing, one in a hundred yields to the event loop.
    const pause = () => (++entered % 100 === 0 ? new Promise<void>((r) => setImmediate(r)) : undefined);
    const { err, ms } = await failed(
      new Agent(spin, { model: modelThat(async () => "x") }).reply("", undefined, { signal: controller.signal, pause }),
    );
    expect([err.code, err.node]).toEqual(["deadline", "spin"]);
    expect(err.detail).toBe("the turn was cancelled (its signal aborted); the memory given to this turn is unchanged");
    expect(ms).toBeLessThan(3_000);
  });

  it("ends a turn held by its pause hook", async () => {
    const g = graph([n({ name: "held", action: "code", instruction: "1", transitions: ["quit"] })]);
    const { err, ms } = await failed(
      new Agent(g, { model: modelThat(async () => "x") }).reply("", undefined, { deadlineMs: 300, pause: () => never }),
    );
    expect([err.code, err.node]).toEqual(["deadline", "held"]);
    expect(ms).toBeLessThan(3_000);
  });

  it("ends at the caller's signal, and refuses a deadline that is not a positive number", async () => {
    const memory = await firstMemory();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const { err } = await failed(
      new Agent(talk, { model: modelThat(() => never) }).reply("hi", memory, { signal: controller.signal }),
    );
    expect(err.code).toBe("deadline");
    expect(err.detail).toBe("the turn was cancelled (its signal aborted); the memory given to this turn is unchanged");
    for (const deadlineMs of [0, -5, Number.NaN, "100" as unknown as number]) {
      const { err: bad } = await failed(
        new Agent(talk, { model: modelThat(async () => "x") }).reply("hi", memory, { deadlineMs }),
      );
      expect(bad.code).toBe("bad_input");
    }
  });

  it("refuses a signal, a trace or a pause hook of the wrong kind, naming it, before the run starts", async () => {
    const memory = await firstMemory();
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const agent = new Agent(talk, { model: modelThat(async () => "x") });
    for (const [options, message] of [
      [{ signal: 5 }, "signal takes an AbortSignal, not 5"],
      // An object is named by its kind, never its contents (a cycle included).
      [{ signal: cycle }, "signal takes an AbortSignal, not object"],
      [{ trace: "all" }, "trace takes a function, not 'all'"],
      [{ pause: 1 }, "pause takes a function, not 1"],
      [{ onText: cycle }, "onText takes a function that receives the reply's chunks, not object"],
    ] as const) {
      const { err } = await failed(agent.reply("hi", memory, options as never));
      expect([err.code, err.message]).toEqual(["bad_input", message]);
    }
  });

  it("a turn that finishes in time is not touched", async () => {
    const memory = await firstMemory();
    const r = await new Agent(talk, { model: modelThat(async () => "quick") }).reply("hi", memory, {
      deadlineMs: 60_000,
    });
    expect(r.reply).toBe("quick");
  });
});

describe("a turn's deadline with the openai client", () => {
  let server: OpenAIServer;
  beforeEach(async () => {
    server = await startOpenAIServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it("ends the wait for a retry the server asked for, and a body that drips", async () => {
    const memory = await firstMemory();
    const model = new OpenAIModel({ model: "test-model", baseURL: server.baseURL, apiKey: "k" });
    const agent = new Agent(talk, { model });
    server.enqueue({ status: 429, retryAfter: "50" });
    const first = await failed(agent.reply("hi", memory, { deadlineMs: 1_000 }));
    expect([first.err.code, first.err.node]).toEqual(["deadline", "talk"]);
    expect(first.ms).toBeLessThan(5_000);

    server.enqueue({ drip: { text: "slowly" }, everyMs: 500 });
    const second = await failed(agent.reply("hi", memory, { deadlineMs: 1_000 }));
    expect(second.err.code).toBe("deadline");
    expect(second.ms).toBeLessThan(5_000);
  });
});

describe("a deadline's races", () => {
  it("forget each wait once it settles, and end the ones under way when the turn ends", async () => {
    const deadline = new Deadline(undefined, undefined);
    const racing = () => (deadline as unknown as { racing: Set<unknown> }).racing.size;
    for (let i = 0; i < 1_000; i++) await deadline.race(Promise.resolve(i));
    await expect(deadline.race(Promise.reject(new Error("tool failed")))).rejects.toThrow("tool failed");
    expect(racing()).toBe(0);
    const outer = new AbortController();
    const cancelled = new Deadline(undefined, outer.signal);
    const waits = [cancelled.race(never), cancelled.race(never)];
    outer.abort();
    for (const wait of waits) await expect(wait).rejects.toThrow("the turn was cancelled (its signal aborted)");
    await expect(cancelled.race(Promise.resolve(1))).rejects.toThrow("the turn was cancelled");
    expect(() => cancelled.check()).toThrow("the turn was cancelled");
    cancelled.dispose();
    deadline.dispose();
  });
});
