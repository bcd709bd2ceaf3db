import { ModelError, OpenAIModel } from "../../runtime/src/model/index.js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startOpenAIServer, type OpenAIServer } from "../support/openai-server.js";

let server: OpenAIServer;
beforeEach(async () => {
  server = await startOpenAIServer();
});
afterEach(async () => {
  await server.close();
  vi.unstubAllEnvs();
});

const modelOn = (s: OpenAIServer, options: Partial<ConstructorParameters<typeof OpenAIModel>[0]> = {}) =>
  new OpenAIModel({ model: "test-model", baseURL: s.baseURL, apiKey: "test-key", ...options });

const ask = (model: OpenAIModel, node = "greet") =>
  model.complete({
    node,
    purpose: "chat",
    messages: [
      { role: "system", content: "Be brief." },
      { role: "user", content: "Hi" },
    ],
  });

/** The ModelError a promise rejects with. */
async function failure(p: Promise<unknown>): Promise<ModelError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ModelError);
  return err as ModelError;
}

describe("OpenAIModel.complete", () => {
  it("sends the messages with the model's settings and returns the text", async () => {
    server.enqueue({ text: "Hello there." });
    const model = modelOn(server, { temperature: 0.3, maxTokens: 50, extraBody: { seed: 7 } });
    expect(await ask(model)).toBe("Hello there.");
    const [req] = server.completions;
    expect(req!.headers.authorization).toBe("Bearer test-key");
    expect(req!.body).toEqual({
      model: "test-model",
      temperature: 0.3,
      max_tokens: 50,
      seed: 7,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
      ],
    });
  });

  it("reports the tokens the server says the call used", async () => {
    server.enqueue({ text: "Hello." }, { choice: "B" });
    const usage: unknown[] = [];
    const model = modelOn(server);
    await model.complete({ node: "n", purpose: "chat", messages: [], onUsage: (u) => usage.push(u) });
    await model.choose({ node: "n", prompt: "Which?", choices: ["a", "b"], onUsage: (u) => usage.push(u) });
    expect(usage).toEqual([
      { inputTokens: 1, outputTokens: 1 },
      { inputTokens: 1, outputTokens: 1 },
    ]);
    expect(model.provider).toBe("openai");
  });

  it("rides out a 429 through the client's retry", async () => {
    server.enqueue({ status: 429, message: "slow down" }, { text: "after the retry" });
    expect(await ask(modelOn(server, { maxRetries: 2 }))).toBe("after the retry");
    expect(server.completions).toHaveLength(2);
  });

  it("names the node, the status and the attempts when 500s outlast the retries", async () => {
    server.enqueue(
      { status: 500, message: "boom" },
      { status: 500, message: "boom" },
      { status: 500, message: "boom" },
    );
    const err = await failure(ask(modelOn(server, { maxRetries: 2 }), "ask_ready"));
    expect(err.message).toBe(
      "node 'ask_ready': model call failed: the server answered 500 Internal Server Error: boom (3 attempts)",
    );
    expect([err.node, err.failure, err.status]).toEqual(["ask_ready", "http", 500]);
    expect(server.completions).toHaveLength(3);
  });

  it("does not retry what retrying cannot fix", async () => {
    server.enqueue({ status: 401, message: "Incorrect API key provided" });
    const err = await failure(ask(modelOn(server, { maxRetries: 2 })));
    expect(err.message).toBe(
      "node 'greet': model call failed: the server answered 401 Unauthorized: Incorrect API key provided",
    );
    expect(server.completions).toHaveLength(1);
  });

  it("reports a timeout after the retries", async () => {
    server.enqueue({ delay: 2000, then: { text: "too late" } }, { delay: 2000, then: { text: "too late" } });
    const err = await failure(ask(modelOn(server, { timeout: 150, maxRetries: 1 }), "slow_node"));
    expect(err.failure).toBe("timeout");
    expect(err.message).toBe(
      `node 'slow_node': model call failed: no answer from ${server.baseURL} within 150 ms (2 attempts)`,
    );
    expect(server.completions).toHaveLength(2);
  });

  it("recovers when a retry answers in time", async () => {
    // The second answer comes at once; a second is room enough for it on a busy machine.
    server.enqueue({ delay: 10_000, then: { text: "too late" } }, { text: "in time" });
    expect(await ask(modelOn(server, { timeout: 1_000, maxRetries: 1 }))).toBe("in time");
  });

  it("reports a malformed JSON body", async () => {
    server.enqueue({ body: '{"id": "x", "choices": [' });
    const err = await failure(ask(modelOn(server)));
    expect(err.failure).toBe("malformed");
    expect(err.message).toMatch(/^node 'greet': model call failed: the server's answer is not valid JSON: /);
  });

  it("reports a body that is JSON but no completion, or no JSON at all", async () => {
    server.enqueue({ body: '{"object": "nothing"}' }, { body: "<html>proxy error</html>", contentType: "text/html" });
    const model = modelOn(server);
    expect((await failure(ask(model))).message).toBe(
      `node 'greet': model call failed: the server's answer is not a chat completion: {"object":"nothing"}`,
    );
    expect((await failure(ask(model))).message).toBe(
      `node 'greet': model call failed: the server's answer is not a chat completion: "<html>proxy error</html>"`,
    );
  });

  it("reports a server it cannot reach", async () => {
    const closed = await startOpenAIServer();
    await closed.close();
    const err = await failure(ask(modelOn(closed, { maxRetries: 0 })));
    expect(err.failure).toBe("connection");
    expect(err.message).toContain(`cannot reach ${closed.baseURL}: `);
    expect(err.message).toMatch(/ECONNREFUSED/);
  });

  it("reports a refusal", async () => {
    server.enqueue(() => ({
      body: JSON.stringify({
        id: "c",
        object: "chat.completion",
        created: 0,
        model: "m",
        choices: [
          {
            index: 0,
            finish_reason: "stop",
            logprobs: null,
            message: { role: "assistant", content: null, refusal: "I can't help with that." },
          },
        ],
      }),
    }));
    expect((await failure(ask(modelOn(server)))).message).toBe(
      "node 'greet': model call failed: the model refused: I can't help with that.",
    );
  });
});

describe("OpenAIModel configuration", () => {
  it("takes the server and key from OPENAI_BASE_URL and OPENAI_API_KEY", async () => {
    vi.stubEnv("OPENAI_BASE_URL", server.baseURL);
    vi.stubEnv("OPENAI_API_KEY", "from-env");
    server.enqueue({ text: "ok" });
    expect(await ask(new OpenAIModel({ model: "test-model" }))).toBe("ok");
    expect(server.completions[0]!.headers.authorization).toBe("Bearer from-env");
  });

  it("needs no key for a server given by URL", async () => {
    vi.stubEnv("OPENAI_API_KEY", "");
    server.enqueue({ text: "ok" });
    expect(await ask(new OpenAIModel({ model: "local", baseURL: server.baseURL }))).toBe("ok");
  });

  it("says what to set when there is neither key nor server", () => {
    vi.stubEnv("OPENAI_API_KEY", "");
    vi.stubEnv("OPENAI_BASE_URL", "");
    expect(() => new OpenAIModel({ model: "gpt-4o-mini" })).toThrow(
      /no API key and no server\. Set OPENAI_API_KEY .* or set OPENAI_BASE_URL/,
    );
    expect(() => new OpenAIModel({ model: "", apiKey: "k" })).toThrow(/`model` is required/);
  });
});
