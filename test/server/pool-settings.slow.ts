// A thread's model settings reach a turn played in a worker thread: the pool's play message
// carries them, and the worker's model (the real openai client on the local test server) sends
// them; the turn's trace records them. Without settings the worker's model is as it was made.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inflateRawSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { settingsOfTrace } from "@autograms/runtime";
import { TurnPool, type PlayRequest } from "@autograms/server";
import type { StoredTraceEvent } from "@autograms/store";
import { startOpenAIServer, type OpenAIServer } from "../support/openai-server.js";
import { graph } from "../runtime/helpers.js";
import { enqueueTurn, usageNodes } from "./support/usage-agent.js";

let openai: OpenAIServer;
let pool: TurnPool;
beforeAll(async () => {
  openai = await startOpenAIServer();
  const script = fileURLToPath(new URL("./fixtures/pool/openai-worker.mjs", import.meta.url));
  pool = new TurnPool({ script, data: { graph: graph(usageNodes), baseURL: openai.baseURL }, size: 1 });
  await pool.ready();
});
afterAll(async () => {
  await pool.close();
  await openai.close();
});

const request = (extra: Partial<PlayRequest> = {}): PlayRequest => ({
  threadId: "p1",
  text: "hi",
  memory: null,
  signal: new AbortController().signal,
  onStep: () => {},
  onText: () => {},
  ...extra,
});

describe("model settings in a worker thread", () => {
  it("are sent by the worker's model and recorded in the turn's trace", async () => {
    const settings = { model: "bigger-model", temperature: 0.4, maxTokens: 32 };
    enqueueTurn(openai, "Hello!", 10, 2);
    const played = await pool.play(request({ modelSettings: settings }));
    expect(played.reply).toBe("Hello!");
    expect(openai.completions.map((r) => r.body.model)).toEqual(["bigger-model", "bigger-model"]);
    expect(openai.completions[1]!.body).toMatchObject({ temperature: 0.4, max_tokens: 32 });
    const trace = JSON.parse(inflateRawSync(played.packed.trace).toString("utf8")) as StoredTraceEvent[];
    expect(settingsOfTrace(trace)).toEqual(settings);

    enqueueTurn(openai, "Again.", 10, 2);
    await pool.play(request({ threadId: "p2" }));
    expect(openai.completions.slice(2).map((r) => r.body.model)).toEqual(["test-model", "test-model"]);
    expect(openai.completions[3]!.body.temperature).toBeUndefined();
  });
});
