// Servers that would hold a call for ever: Retry-After waits past any patience, bodies and
// streams that drip or stop, and callers that give up (a turn's deadline). The real openai client
// talks HTTP to the local test server; every case must end in seconds with a ModelError.
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
  new OpenAIModel({ model: "test-model", baseURL: server.baseURL, apiKey: "test-key", ...options });

const ask = (model: OpenAIModel, signal?: AbortSignal) =>
  model.complete({
    node: "greet",
    purpose: "chat",
    messages: [{ role: "user", content: "Hi" }],
    ...(signal && { signal }),
  });

/** The ModelError a call ends with, and how long it took to end. */
async function failure(p: Promise<unknown>): Promise<{ err: ModelError; ms: number }> {
  const started = Date.now();
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ModelError);
  return { err: err as ModelError, ms: Date.now() - started };
}

describe("Retry-After", () => {
  it("fails at once when the server asks for a longer wait than allowed (default 60 s)", async () => {
    for (const retryAfter of ["100000", new Date(Date.now() + 3_600_000).toUTCString(), "61"]) {
      server.enqueue({ status: 429, message: "slow down", retryAfter });
      const { err, ms } = await failure(ask(modelOn()));
      expect(err.message).toMatch(
        /^node 'greet': model call failed: the server answered 429 Too Many Requests and asked to be retried in [\d.]+ (s|min|h), longer than the 60 s allowed \(maxRetryAfterMs\)$/,
      );
      expect([err.failure, err.status]).toEqual(["http", 429]);
      expect(ms).toBeLessThan(5_000);
    }
    expect(server.completions).toHaveLength(3);
    expect(server.pending).toBe(0);
  });

  it("waits what the server asks within the limit, announcing the wait, and the limit is an option", async () => {
    const notices: RetryNotice[] = [];
    // retry-after-ms (OpenAI's own header) asks for less than a second: the test waits no longer.
    server.enqueue({ status: 503, message: "busy", headers: { "retry-after-ms": "300" } }, { text: "after the wait" });
    const started = Date.now();
    expect(await ask(modelOn({ onRetry: (n) => notices.push(n) }))).toBe("after the wait");
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(notices).toEqual([
      { node: "greet", attempt: 1, attempts: 3, delayMs: 300, reason: "503 Service Unavailable", status: 503 },
    ]);

    server.enqueue({ status: 429, retryAfter: "1" });
    const { err } = await failure(ask(modelOn({ maxRetryAfterMs: 500 })));
    expect(err.message).toContain("asked to be retried in 1 s, longer than the 0.5 s allowed (maxRetryAfterMs)");
  });

  it("counts the attempts made when every retry fails", async () => {
    const notices: RetryNotice[] = [];
    server.enqueue({ status: 500, message: "boom" }, { status: 500, message: "boom" });
    const { err } = await failure(ask(modelOn({ maxRetries: 1, onRetry: (n) => notices.push(n) })));
    expect(err.message).toBe(
      "node 'greet': model call failed: the server answered 500 Internal Server Error: boom (2 attempts)",
    );
    expect(notices.map((n) => [n.attempt, n.attempts, n.reason])).toEqual([[1, 2, "500 Internal Server Error"]]);
  });
});

describe("bodies and streams that stall or drip", () => {
  it("fails a body that goes silent after its headers (idleTimeout)", async () => {
    // One byte every 2 s: each byte comes later than the 0.2 s of silence allowed.
    server.enqueue(
      { drip: { text: "never whole" }, everyMs: 2_000 },
      { drip: { text: "never whole" }, everyMs: 2_000 },
    );
    const { err, ms } = await failure(ask(modelOn({ idleTimeout: 200, maxRetries: 1 })));
    expect(err.message).toBe("node 'greet': model call failed: the answer stalled: no data for 200 ms (2 attempts)");
    expect(err.failure).toBe("timeout");
    expect(ms).toBeLessThan(10_000);
  });

  it("fails a body that keeps dripping past the attempt's timeout, then retries", async () => {
    // A byte every 50 ms is never silent for long, but the whole answer would take minutes.
    server.enqueue({ drip: { text: "x".repeat(2_000) }, everyMs: 50 }, { text: "in one piece" });
    const notices: RetryNotice[] = [];
    expect(await ask(modelOn({ timeout: 700, onRetry: (n) => notices.push(n) }))).toBe("in one piece");
    expect(notices.map((n) => n.reason)).toEqual(["the answer was still arriving after 700 ms (timeout)"]);

    server.enqueue({ drip: { text: "x".repeat(2_000) }, everyMs: 50 });
    const { err, ms } = await failure(ask(modelOn({ timeout: 700, maxRetries: 0 })));
    expect(err.message).toBe("node 'greet': model call failed: the answer was still arriving after 700 ms (timeout)");
    expect(ms).toBeLessThan(8_000);
  });

  it("fails a body or a stream that arrives slower than the low speed limit (a byte every 100 ms, 10 required in 300 ms)", async () => {
    // Never silent for the idle timeout, never past the attempt's timeout: only too slow.
    server.enqueue({ drip: { text: "x".repeat(200) }, everyMs: 100 });
    const slow = modelOn({ lowSpeed: { bytes: 10, windowMs: 300 }, maxRetries: 0 });
    const { err, ms } = await failure(ask(slow));
    expect(err.message).toMatch(
      /^node 'greet': model call failed: the answer arrived too slowly: \d bytes in 300 ms, under the 10 bytes required \(low speed limit\)$/,
    );
    expect(err.failure).toBe("timeout");
    expect(ms).toBeLessThan(3_000);
    server.enqueue({ drip: { text: "slow words ".repeat(50) }, everyMs: 100, bytes: 1 });
    const streamed = await failure(
      slow.completeWithTools({ node: "n", messages: [{ role: "user", content: "Hi" }], tools: [], stream: true }),
    );
    expect(streamed.err.message).toMatch(/the stream arrived too slowly: \d bytes in 300 ms/);
    // Fast enough: the same limit lets a whole answer through.
    server.enqueue({ drip: { text: "quick enough" }, everyMs: 20, bytes: 8 });
    expect(await ask(slow)).toBe("quick enough");
  });

  it("fails a stream that goes silent before any text, after sending it again", async () => {
    // 40 bytes every 2 s: the first event is not even whole when the 0.2 s of silence is up.
    server.enqueue(
      { drip: { text: "slow words" }, everyMs: 2_000, bytes: 40 },
      { drip: { text: "slow words" }, everyMs: 2_000, bytes: 40 },
    );
    const model = modelOn({ idleTimeout: 200, maxRetries: 1 });
    const { err, ms } = await failure(
      model.completeWithTools({ node: "n", messages: [{ role: "user", content: "Hi" }], tools: [], stream: true }),
    );
    expect(err.message).toBe("node 'n': model call failed: the stream stalled: no data for 200 ms (2 attempts)");
    expect(ms).toBeLessThan(8_000);
    expect(server.completions).toHaveLength(2);
  });

  it("a dripping stream that never goes silent ends at the caller's deadline", async () => {
    server.enqueue({ drip: { text: "a very slow answer ".repeat(100) }, everyMs: 100 });
    const model = modelOn({ idleTimeout: 1_000 });
    const text: string[] = [];
    const { err, ms } = await failure(
      model.completeWithTools({
        node: "n",
        messages: [{ role: "user", content: "Hi" }],
        tools: [],
        stream: true,
        onText: (t) => text.push(t),
        // Sooner than the idle timeout could end it, which the drip never reaches anyway.
        signal: AbortSignal.timeout(700),
      }),
    );
    expect(err.failure).toBe("timeout");
    expect(err.message).toBe("node 'n': model call failed: the call was abandoned: its caller's deadline passed");
    expect(ms).toBeLessThan(8_000);
  });
});

describe("the caller's deadline (signal)", () => {
  it("ends a wait for a retry at once", async () => {
    server.enqueue({ status: 429, retryAfter: "30" });
    const { err, ms } = await failure(ask(modelOn(), AbortSignal.timeout(500)));
    expect(err.message).toBe("node 'greet': model call failed: the call was abandoned: its caller's deadline passed");
    expect(ms).toBeLessThan(5_000);
  });

  it("ends a request waiting for its answer, and a choice", async () => {
    server.enqueue({ delay: 30_000 }, { delay: 30_000 });
    expect((await failure(ask(modelOn(), AbortSignal.timeout(500)))).ms).toBeLessThan(5_000);
    const choosing = modelOn().choose({
      node: "pick",
      prompt: "Which?",
      choices: ["a", "b"],
      signal: AbortSignal.timeout(500),
    });
    const { err, ms } = await failure(choosing);
    expect(err.message).toBe("node 'pick': model call failed: the call was abandoned: its caller's deadline passed");
    expect(ms).toBeLessThan(5_000);
  });
});
