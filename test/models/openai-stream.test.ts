// OpenAIModel with `stream: true`: text answers arrive through onText piece by piece, over the real
// openai client and server-sent events from the local test server. A failed stream is sent again
// only while none of its text has been passed on.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ModelError, OpenAIModel, type RetryNotice } from "../../runtime/src/model/index.js";
import { startOpenAIServer, type OpenAIServer } from "../support/openai-server.js";

let server: OpenAIServer;
beforeEach(async () => {
  server = await startOpenAIServer();
});
afterEach(async () => {
  await server.close();
});

const modelOn = (options: Partial<ConstructorParameters<typeof OpenAIModel>[0]> = {}) =>
  new OpenAIModel({ model: "test-model", baseURL: server.baseURL, apiKey: "k", stream: true, ...options });

/** Asks for a chat answer, collecting what arrives through onText. */
async function streamed(
  model: OpenAIModel,
  signal?: AbortSignal,
): Promise<{ answer?: string; err?: ModelError; deltas: string[] }> {
  const deltas: string[] = [];
  try {
    const answer = await model.complete({
      node: "greet",
      purpose: "chat",
      messages: [{ role: "user", content: "Hi" }],
      onText: (d) => deltas.push(d),
      ...(signal && { signal }),
    });
    return { answer, deltas };
  } catch (err) {
    expect(err).toBeInstanceOf(ModelError);
    return { err: err as ModelError, deltas };
  }
}

describe("streamed text answers", () => {
  it("passes each delta on as it arrives and resolves with their sum", async () => {
    server.enqueue({ text: "Hello there, how are you?", chunks: ["Hel", "lo there", ", how ", "", "are you?"] });
    const { answer, deltas } = await streamed(modelOn());
    expect(deltas).toEqual(["Hel", "lo there", ", how ", "are you?"]);
    expect(answer).toBe("Hello there, how are you?");
    expect(server.completions[0]!.body.stream).toBe(true);
  });

  it("hands each delta over while the answer is still arriving", async () => {
    // The server sends each chunk only once the text before it has reached onText.
    const deltas: string[] = [];
    const waiters: (() => void)[] = [];
    const shown = (n: number) =>
      new Promise<void>((resolve) =>
        deltas.length >= n ? resolve() : waiters.push(() => deltas.length >= n && resolve()),
      );
    // Chunk 0 opens the stream, chunk i (1..3) is a text piece, then the finish chunk and [DONE].
    server.enqueue({
      paced: { text: "one two three", chunks: ["one ", "two ", "three"] },
      pace: (i) => (i >= 2 && i <= 4 ? shown(i - 1) : Promise.resolve()),
    });
    const answer = await modelOn().complete({
      node: "n",
      purpose: "chat",
      messages: [{ role: "user", content: "Count" }],
      onText: (d) => {
        deltas.push(d);
        for (const w of waiters) w();
      },
    });
    expect(answer).toBe("one two three");
    expect(deltas).toEqual(["one ", "two ", "three"]);
  });

  it("sends no stream without onText, and none unless the option is on", async () => {
    server.enqueue({ text: "plain" }, { text: "plain too" });
    expect(
      await modelOn().complete({ node: "n", purpose: "thought", messages: [{ role: "user", content: "Hi" }] }),
    ).toBe("plain");
    const deltas: string[] = [];
    const off = modelOn({ stream: false });
    expect(
      await off.complete({
        node: "n",
        purpose: "chat",
        messages: [{ role: "user", content: "Hi" }],
        onText: (d) => deltas.push(d),
      }),
    ).toBe("plain too");
    expect(deltas).toEqual([]);
    expect(server.completions.map((r) => r.body.stream)).toEqual([undefined, undefined]);
  });

  it("retries a failed request before any text, waiting as the server asks", async () => {
    const notices: RetryNotice[] = [];
    server.enqueue({ status: 503, message: "busy" }, { text: "second time lucky", chunks: ["second ", "time lucky"] });
    const { answer, deltas } = await streamed(modelOn({ onRetry: (n) => notices.push(n) }));
    expect(answer).toBe("second time lucky");
    expect(deltas).toEqual(["second ", "time lucky"]);
    expect(notices.map((n) => n.reason)).toEqual(["503 Service Unavailable"]);
  });

  it("sends a stream again when it stalls before any text", async () => {
    // Only the opening chunk (role, empty content) arrives, then silence.
    server.enqueue({ stallAfter: 1, reply: { text: "never" } }, { text: "fresh start", chunks: ["fresh ", "start"] });
    const notices: RetryNotice[] = [];
    const { answer, deltas } = await streamed(modelOn({ idleTimeout: 1_000, onRetry: (n) => notices.push(n) }));
    expect(answer).toBe("fresh start");
    expect(deltas).toEqual(["fresh ", "start"]);
    expect(notices.map((n) => n.reason)).toEqual(["the stream stalled: no data for 1000 ms"]);
    expect(server.completions).toHaveLength(2);
  });

  it("fails a stream that stalls after some text, without sending it again", async () => {
    server.enqueue(
      { stallAfter: 3, reply: { text: "This will never finish.", chunks: ["This ", "will ", "never ", "finish."] } },
      { text: "not asked" },
    );
    const { err, deltas } = await streamed(modelOn({ idleTimeout: 1_000 }));
    expect(err!.message).toBe("node 'greet': model call failed: the stream stalled: no data for 1000 ms");
    expect(err!.failure).toBe("timeout");
    expect(deltas).toEqual(["This ", "will "]);
    expect(server.completions).toHaveLength(1);
    expect(server.pending).toBe(1);
  });

  it("fails a stream that reports an error after some text, without sending it again", async () => {
    server.enqueue(
      {
        errorAfter: 2,
        reply: { text: "Half an answer", chunks: ["Half ", "an answer"] },
        message: "the model crashed",
      },
      { text: "not asked" },
    );
    const { err, deltas } = await streamed(modelOn());
    expect(err!.message).toBe("node 'greet': model call failed: the server reported an error: the model crashed");
    expect(deltas).toEqual(["Half "]);
    expect(server.completions).toHaveLength(1);
  });

  it("sends a stream again when its connection is lost before any text", async () => {
    server.enqueue({ dropAfter: 1, reply: { text: "lost" } }, { text: "found", chunks: ["fo", "und"] });
    const { answer, deltas } = await streamed(modelOn());
    expect([answer, deltas]).toEqual(["found", ["fo", "und"]]);
    expect(server.completions).toHaveLength(2);
  });

  it("fails a stream whose connection is lost after some text", async () => {
    server.enqueue(
      { dropAfter: 2, reply: { text: "Cut off here", chunks: ["Cut ", "off here"] } },
      { text: "not asked" },
    );
    const { err, deltas } = await streamed(modelOn());
    expect(err).toBeInstanceOf(ModelError);
    expect(err!.message).toBe(
      `node 'greet': model call failed: the connection to ${server.baseURL} was lost while the answer arrived: other side closed`,
    );
    expect(err!.failure).toBe("connection");
    expect(deltas).toEqual(["Cut "]);
    expect(server.completions).toHaveLength(1);
  });

  it("ends a stream that keeps dripping at the caller's deadline", async () => {
    server.enqueue({ drip: { text: "a very slow answer ".repeat(100) }, everyMs: 100 });
    const started = Date.now();
    const { err, deltas } = await streamed(modelOn({ idleTimeout: 1_000 }), AbortSignal.timeout(1_500));
    expect(err!.message).toBe("node 'greet': model call failed: the call was abandoned: its caller's deadline passed");
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(deltas.join("")).toMatch(/^(a very slow answer )*(a( v(e(ry?)?)?)?)?/);
  });

  it("reports a refusal", async () => {
    server.enqueue({
      sse: [
        `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta: { role: "assistant", refusal: "I cannot " }, finish_reason: null }] })}\n\n`,
        `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta: { refusal: "help with that." }, finish_reason: "stop" }] })}\n\n`,
        "data: [DONE]\n\n",
      ],
    });
    const { err, deltas } = await streamed(modelOn());
    expect(err!.message).toBe("node 'greet': model call failed: the model refused: I cannot help with that.");
    expect(err!.failure).toBe("answer");
    expect(deltas).toEqual([]);
  });

  it("drops a sampling setting the server refuses and streams without it", async () => {
    await server.close();
    server = await (await import("../support/openai-server.js")).startOpenAIServer({ unsupported: ["temperature"] });
    server.enqueue({ text: "no temperature" });
    const { answer } = await streamed(modelOn({ temperature: 0.2 }));
    expect(answer).toBe("no temperature");
    expect(server.completions.map((r) => [r.body.stream, r.body.temperature])).toEqual([
      [true, 0.2],
      [true, undefined],
    ]);
  });

  it("streams the text of a native tool-calling answer when the option is on", async () => {
    server.enqueue({ text: "The answer is 42.", chunks: ["The answer ", "is 42."] });
    const deltas: string[] = [];
    const answer = await modelOn().completeWithTools({
      node: "solve",
      messages: [{ role: "user", content: "6*7?" }],
      tools: [],
      onText: (d) => deltas.push(d),
    });
    expect(answer).toEqual({ text: "The answer is 42.", toolCalls: [], finishReason: "stop" });
    expect(deltas).toEqual(["The answer ", "is 42."]);
    expect(server.completions[0]!.body.stream).toBe(true);
  });
});

describe("through the runtime", () => {
  it("streams a chat node's reply, withdraws a regenerated one, and keeps thoughts and choices plain", async () => {
    const { Agent } = await import("@autograms/runtime");
    const g = {
      format: "autograms-graph",
      version: 1,
      agent: "T",
      globals: {},
      functions: {},
      nodes: [
        { name: "think", action: "thought", instruction: "Think.", transitions: ["route"] },
        {
          name: "route",
          action: "transition",
          transitions: ["greet", "think"],
          transition_question: "Greet?",
          transition_choices: ["yes", "no"],
        },
        { name: "greet", action: "chat", instruction: "Greet the user.", transitions: ["greet"] },
      ],
    };
    server.enqueue(
      { text: "a private thought" },
      { choice: "A" },
      { text: "As an AI, hello.", chunks: ["Well. ", "As an AI", ", hello."] },
      { text: "Hello, friend!", chunks: ["Hello", ", friend!"] },
    );
    const chunks: unknown[] = [];
    const agent = new Agent(g, { model: modelOn(), config: { bannedPhrases: ["as an ai"] } });
    const r = await agent.reply("hi", undefined, { onText: (c) => chunks.push(c) });
    expect(r.reply).toBe("Hello, friend!");
    expect(chunks).toEqual([
      { kind: "delta", node: "greet", text: "Well." },
      { kind: "reset", node: "greet" },
      { kind: "delta", node: "greet", text: "Hello" },
      { kind: "delta", node: "greet", text: ", friend!" },
    ]);
    expect(server.completions.map((c) => c.body.stream ?? false)).toEqual([false, false, true, true]);
  });

  it("streams a tool-calling chat node's final answer, withdrawing the text beside its calls", async () => {
    const { Agent, defineTool } = await import("@autograms/runtime");
    const add = defineTool({
      name: "add",
      description: "Adds.",
      parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
      run: ({ a, b }: { a: number; b: number }) => a + b,
    });
    const g = {
      format: "autograms-graph",
      version: 1,
      agent: "T",
      globals: {},
      functions: {},
      tools: { add: { module: "./t.js", export: "add" } },
      nodes: [{ name: "answer", action: "chat", instruction: "Answer.", tools: ["add"], transitions: ["answer"] }],
    };
    server.enqueue(
      { toolCalls: [{ name: "add", arguments: { a: 2, b: 40 } }], text: "Let me add." },
      { text: "It is 42.", chunks: ["It is ", "42."] },
    );
    const chunks: unknown[] = [];
    const r = await new Agent(g, { model: modelOn(), tools: { add } }).reply("2+40?", undefined, {
      onText: (c) => chunks.push(c),
    });
    expect(r.reply).toBe("It is 42.");
    expect(chunks).toEqual([
      // The server sends text in pieces of 5 characters unless told otherwise.
      { kind: "delta", node: "answer", text: "Let m" },
      { kind: "delta", node: "answer", text: "e add" },
      { kind: "delta", node: "answer", text: "." },
      { kind: "reset", node: "answer" },
      { kind: "delta", node: "answer", text: "It is" },
      { kind: "delta", node: "answer", text: " 42." },
    ]);
    expect(server.completions.map((c) => c.body.stream)).toEqual([true, true]);
    expect(server.completions[1]!.body.messages.at(-1)).toMatchObject({ role: "tool", content: "42" });
  });

  it("ends a turn whose stream is still arriving at its deadline, and hears nothing after", async () => {
    const { Agent, AgentError } = await import("@autograms/runtime");
    const g = {
      format: "autograms-graph",
      version: 1,
      agent: "T",
      globals: {},
      functions: {},
      nodes: [{ name: "greet", action: "chat", instruction: "Greet.", transitions: ["greet"] }],
    };
    // Two pieces, then the stream holds until the test ends.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    server.enqueue({
      paced: { text: "Hello there, friend", chunks: ["Hello ", "there, ", "friend"] },
      pace: (i) => (i < 3 ? Promise.resolve() : held),
    });
    const chunks: unknown[] = [];
    const started = Date.now();
    const err = await new Agent(g, { model: modelOn() })
      .reply("hi", undefined, { onText: (c) => chunks.push(c), deadlineMs: 500 })
      .catch((e: unknown) => e);
    release();
    expect(err).toBeInstanceOf(AgentError);
    expect((err as InstanceType<typeof AgentError>).code).toBe("deadline");
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(chunks).toEqual([
      { kind: "delta", node: "greet", text: "Hello" },
      { kind: "delta", node: "greet", text: " there," },
    ]);
  });
});
