// The runs of every thread over the HTTP API: GET /api/runs (newest first, paged, filtered, each
// with its tokens and cost), GET /api/runs/:id/spans (a run's span tree from the stored trace)
// and GET /api/metrics (runs, tokens, cost, latency and errors over time).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { Agent, OpenAIModel } from "@autograms/runtime";
import { listen, type RunningServer } from "@autograms/server";
import { openStore, type Store } from "@autograms/store";
import { startOpenAIServer, type OpenAIServer } from "../support/openai-server.js";
import { graph } from "../runtime/helpers.js";
import { json, tempFolder } from "./support/harness.js";
import { enqueueTurn, usageNodes } from "./support/usage-agent.js";

const folder = tempFolder("autograms-runs-view-");
let store: Store;
let openai: OpenAIServer;
let server: RunningServer;
let url: string;

const say = async (thread: string, message: string | null) =>
  (await fetch(`${url}/api/threads/${thread}/runs`, json({ message, messageId: `${thread}-${message}` }))).text();
const get = async (path: string) => {
  const res = await fetch(`${url}${path}`);
  return { status: res.status, body: (await res.json()) as any };
};

beforeAll(async () => {
  store = await openStore(`sqlite:${join(folder.path, "threads.db")}`);
  openai = await startOpenAIServer();
  const agent = new Agent(graph(usageNodes, { agent: "RunsView" }), {
    model: new OpenAIModel({ model: "m", baseURL: openai.baseURL, apiKey: "k", maxRetries: 0 }),
  });
  server = await listen({ agent, store, port: 0, prices: { m: { input: 2, output: 10 } } });
  url = server.url;
  // Each thread opens (the agent's opening, a run of its own), then answers a message.
  enqueueTurn(openai, "Welcome!", 10, 1);
  await say("a", null);
  enqueueTurn(openai, "Hello!", 1000, 100);
  await say("a", "hi");
  enqueueTurn(openai, "Welcome!", 10, 1);
  await say("b", null);
  enqueueTurn(openai, "Hello again!", 3000, 300);
  await say("b", "hi");
  openai.enqueue({ choice: "A" }, { status: 400, message: "the prompt is too long for this model" });
  await say("b", "once more");
});
afterAll(async () => {
  await server.close();
  await store.close();
  await openai.close();
  folder.remove();
});

describe("the runs API", () => {
  it("lists every thread's runs newest first, with status, error, tokens and cost", async () => {
    const { status, body } = await get("/api/runs");
    expect(status).toBe(200);
    expect(body.next).toBeNull();
    expect(body.runs.map((r: any) => [r.threadId, r.status, r.turn])).toEqual([
      ["b", "failed", 3],
      ["b", "committed", 2],
      ["b", "committed", 1],
      ["a", "committed", 2],
      ["a", "committed", 1],
    ]);
    const [failed, second, , first, opening] = body.runs;
    expect(failed.error).toMatchObject({ message: expect.stringContaining("too long") });
    expect(failed.usage).toBeUndefined();
    expect(first).toMatchObject({
      agent: "RunsView",
      user: "hi",
      turnStatus: "ok",
      usage: { inputTokens: 1001, outputTokens: 101, cost: 0.003012 },
    });
    expect(first.ms).toBeGreaterThanOrEqual(0);
    expect(second.usage).toEqual({ inputTokens: 3001, outputTokens: 301, cost: 0.009012 });
    expect(first.trace).toBeUndefined();
    expect(opening).toMatchObject({ user: null, usage: { inputTokens: 11, outputTokens: 2, cost: 0.000042 } });
  });

  it("filters by status, error text, agent and time, and pages", async () => {
    const ids = async (query: string) => (await get(`/api/runs?${query}`)).body.runs.map((r: any) => r.threadId);
    expect(await ids("status=failed")).toEqual(["b"]);
    expect(await ids("status=committed,stopped")).toEqual(["b", "b", "a", "a"]);
    expect(await ids("error=TOO%20LONG")).toEqual(["b"]);
    expect(await ids("error=nothing%20like%20it")).toEqual([]);
    expect(await ids("agent=Other")).toEqual([]);
    expect(await ids("agent=*")).toHaveLength(5);
    expect(await ids(`since=${Date.now() + 60_000}`)).toEqual([]);
    expect(await ids(`until=${Date.now() + 60_000}`)).toHaveLength(5);
    const page = (await get("/api/runs?limit=4")).body;
    expect(page.runs).toHaveLength(4);
    expect((await get(`/api/runs?limit=4&after=${page.next}`)).body).toMatchObject({
      runs: [{ threadId: "a" }],
      next: null,
    });
  });

  it("refuses a query it cannot answer, naming the field", async () => {
    for (const [query, field] of [
      ["status=done", "status"],
      ["limit=0", "limit"],
      ["since=yesterday", "since"],
      ["after=nonsense", "after"],
    ]) {
      const { status, body } = await get(`/api/runs?${query}`);
      expect(status).toBe(400);
      expect(body.error.message).toMatch(new RegExp(`^${field}: `));
    }
  });

  it("gives a committed run's span tree: the turn, its nodes, the model's decision and generation", async () => {
    const run = (await get("/api/runs")).body.runs[3];
    const { status, body } = await get(`/api/runs/${run.id}/spans`);
    expect(status).toBe(200);
    expect(body.run).toMatchObject({ id: run.id, threadId: "a", agent: "RunsView" });
    const [turn] = body.spans;
    expect(turn).toMatchObject({
      kind: "turn",
      name: "turn 2",
      input: "hi",
      output: "Hello!",
      attributes: { status: "ok", usage: { inputTokens: 1001, outputTokens: 101, cost: 0.003012 } },
    });
    expect(turn.ms).toBeGreaterThanOrEqual(turn.attributes.waitedMs);
    const nodes = turn.children.map((n: any) => [n.kind, n.name]);
    // The message arrives at greet, whose transition goes to route, which chooses greet again.
    expect(nodes).toEqual([
      ["node", "greet"],
      ["node", "route"],
      ["node", "greet"],
    ]);
    expect(turn.children[0].children[0]).toMatchObject({ kind: "step", name: "user message", output: "hi" });
    const steps = turn.children.flatMap((n: any) => n.children);
    const decision = steps.find((s: any) => s.kind === "decision");
    expect(decision).toMatchObject({
      input: [{ purpose: "transition", choices: ["yes", "no"] }],
      output: ["yes"],
      attributes: { call: 0, usage: { model: "m", inputTokens: 1, outputTokens: 1, cost: 0.000012 } },
    });
    const generation = steps.find((s: any) => s.kind === "model");
    expect(generation).toMatchObject({
      name: "chat generation",
      output: "Hello!",
      attributes: { call: 1, usage: { inputTokens: 1000, outputTokens: 100, cost: 0.003 } },
    });
    // The timeline: each step starts where the waits before it end.
    expect(generation.start).toBeCloseTo(decision.start + decision.ms, 5);
  });

  it("gives a failed run's tree from the steps it streamed, with its error", async () => {
    const [failed] = (await get("/api/runs")).body.runs;
    const { body } = await get(`/api/runs/${failed.id}/spans`);
    expect(body.run.status).toBe("failed");
    expect(body.spans[0]).toMatchObject({
      kind: "turn",
      input: "once more",
      attributes: { error: { type: "run-error", message: expect.stringContaining("too long") } },
    });
    expect((await get("/api/runs/no-such-run/spans")).body.error.code).toBe("unknown_run");
  });

  it("reports runs, tokens, cost, latency and errors over the last hour, in buckets and per agent", async () => {
    const { status, body } = await get("/api/metrics?range=hour");
    expect(status).toBe(200);
    expect(body).toMatchObject({ range: "hour", bucketMs: 300_000, rows: 5 });
    expect(body.buckets).toHaveLength(12);
    expect(body.total).toMatchObject({
      runs: 5,
      statuses: { committed: 4, failed: 1 },
      errors: 1,
      inputTokens: 4024,
      outputTokens: 406,
      cost: 0.012108,
    });
    expect(body.total.p50).toBeGreaterThanOrEqual(0);
    expect(body.total.p95).toBeGreaterThanOrEqual(body.total.p50);
    expect(body.buckets.reduce((n: number, b: any) => n + b.runs, 0)).toBe(5);
    expect(body.agents).toMatchObject([{ agent: "RunsView", runs: 5 }]);
    const bad = await get("/api/metrics?range=year");
    expect([bad.status, bad.body.error.message]).toEqual([400, "range: one of hour, day, week"]);
  });

  it("gives a run that opened its thread both turns, also once its events are dropped", async () => {
    // A message to a new thread: the agent's opening, then the answer, in one run.
    enqueueTurn(openai, "Welcome!", 10, 1);
    enqueueTurn(openai, "Hello!", 20, 2);
    await say("c", "hi");
    const run = (await get("/api/runs")).body.runs[0];
    expect(run).toMatchObject({ threadId: "c", user: "hi" });
    const users = async () => (await get(`/api/runs/${run.id}/spans`)).body.spans.map((t: any) => t.input);
    const both = await users();
    expect(both).toEqual([null, "hi"]);
    // Past the resume window the run's events are gone; its turns, and so its tree, stay.
    expect(await store.dropRunEvents(-60_000)).toBeGreaterThan(0);
    expect(await store.runEvents(run.id)).toEqual([]);
    expect(await users()).toEqual(both);
    // A later run of the thread has its own turn alone, not the opening before it.
    enqueueTurn(openai, "Again!", 5, 1);
    await say("c", "again");
    const later = (await get("/api/runs")).body.runs[0];
    expect((await get(`/api/runs/${later.id}/spans`)).body.spans).toHaveLength(1);
  });
});
