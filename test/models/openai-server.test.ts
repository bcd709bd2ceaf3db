// The test server's own contract, which end-to-end tests elsewhere rely on.
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { startOpenAIServer, type OpenAIServer } from "../support/openai-server.js";

let server: OpenAIServer;
afterEach(async () => {
  await server.close();
});

const client = () => new OpenAI({ baseURL: server.baseURL, apiKey: "k", maxRetries: 3, logLevel: "off" });
const ask = (content = "hi") =>
  client().chat.completions.create({ model: "test-model", messages: [{ role: "user", content }] });

describe("the local OpenAI-compatible server", () => {
  it("lists its model", async () => {
    server = await startOpenAIServer({ model: "tiny" });
    expect((await client().models.list()).data.map((m) => m.id)).toEqual(["tiny"]);
  });

  it("answers from the queue first, then from the handler, and records the requests", async () => {
    server = await startOpenAIServer({ handler: (req) => ({ text: `handled ${req.body.messages[0].content}` }) });
    server.enqueue({ text: "queued" });
    expect(server.pending).toBe(1);
    expect((await ask("a")).choices[0]!.message.content).toBe("queued");
    expect((await ask("b")).choices[0]!.message.content).toBe("handled b");
    expect(server.pending).toBe(0);
    expect(server.completions.map((r) => r.body.messages[0].content)).toEqual(["a", "b"]);
    expect(server.requests.every((r) => r.method === "POST" && r.path === "/v1/chat/completions")).toBe(true);
  });

  it("refuses, without retries, a request it has no reply for", async () => {
    server = await startOpenAIServer();
    await expect(ask()).rejects.toThrow(
      "501 openai-server: no scripted reply left for request #1 (POST /v1/chat/completions)",
    );
    expect(server.completions).toHaveLength(1);
  });

  it("lets retried errors be retried at once", async () => {
    server = await startOpenAIServer();
    server.enqueue(
      { status: 429 },
      { status: 502 },
      { status: 500, headers: { "retry-after-ms": "5" } },
      { text: "ok" },
    );
    const started = Date.now();
    expect((await ask()).choices[0]!.message.content).toBe("ok");
    // Without the server's retry-after-ms the client's own backoff alone waits at least 2.6 s
    // (0.5 s, 1 s, 2 s, each less up to a quarter): under 2 s leaves a busy machine its margin.
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(server.completions).toHaveLength(4);
  });

  it("drops a connection when told to", async () => {
    server = await startOpenAIServer();
    server.enqueue({ drop: true });
    await expect(client().chat.completions.create({ model: "m", messages: [] }, { maxRetries: 0 })).rejects.toThrow(
      "Connection error.",
    );
  });
});
