// OpenTelemetry spans of turns played in worker threads: recorded in the worker, exported by the
// SDK registered in the main thread (the SDK's in-memory exporter), as the same tree of spans as
// the turns played in the main thread make, under the main thread's current span.
import { context, propagation, trace, type HrTime } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { drainSpanQueue } from "@autograms/runtime/telemetry";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { compile } from "@autograms/compiler";
import { Agent, OfflineModel } from "@autograms/runtime";
import { InProcessPlayer, TurnPool, type TurnPlayer } from "@autograms/server";
import { whoami } from "./fixtures/pool/whoami.js";
import { playRequest } from "./support/play-request.js";

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/pool/${name}`, import.meta.url));
const { graph } = compile(readFileSync(fixture("traced.ts"), "utf8"), { fileName: "traced.ts" });
const exporter = new InMemorySpanExporter();
let provider: NodeTracerProvider;
let pool: TurnPool;

beforeAll(async () => {
  provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  provider.register();
  pool = new TurnPool({ script: fixture("worker.mjs"), data: { graph }, size: 2 });
  await pool.ready();
});
// The SDK registers itself on the process's global object; other test files share this process.
afterAll(async () => {
  await pool.close();
  await provider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
});

const request = playRequest;

const ms = (t: HrTime) => t[0] * 1000 + t[1] / 1e6;

/** The spans as a tree of what an exporter sends of them, but their ids and times. */
interface Shape {
  name: string;
  kind: number;
  scope: string;
  attributes: Record<string, unknown>;
  status: { code: number; message?: string };
  events: { name: string; attributes: Record<string, unknown> }[];
  children: Shape[];
}
function shapes(spans: readonly ReadableSpan[], parent: string | undefined): Shape[] {
  return spans
    .filter((s) => s.parentSpanContext?.spanId === parent)
    .sort((a, b) => ms(a.startTime) - ms(b.startTime))
    .map((s) => {
      // Each span's times are its own, within its parent's.
      expect(ms(s.endTime)).toBeGreaterThanOrEqual(ms(s.startTime));
      return {
        name: s.name,
        kind: s.kind,
        scope: s.instrumentationScope.name,
        attributes: { ...s.attributes },
        status: s.status,
        // A stack trace names the thread's own frames.
        events: s.events.map((e) => ({ name: e.name, attributes: { ...e.attributes, "exception.stacktrace": null } })),
        children: shapes(spans, s.spanContext().spanId),
      };
    });
}

/** A conversation of three turns (the last one fails) under a span of the application's: its spans. */
async function conversation(player: TurnPlayer, thread: string): Promise<{ request: ReadableSpan; tree: Shape[] }> {
  exporter.reset();
  const tracer = trace.getTracer("test");
  await tracer.startActiveSpan("request", async (span) => {
    const first = await player.play(request(thread, null, null));
    const second = await player.play(request(thread, "hi", first.memory));
    await expect(player.play(request(thread, "fail", second.memory))).rejects.toThrow();
    span.end();
  });
  // The workers' spans are made between other work; a flush makes those still queued.
  drainSpanQueue();
  const spans = exporter.getFinishedSpans();
  const root = spans.find((s) => s.name === "request")!;
  return { request: root, tree: shapes(spans, root.spanContext().spanId) };
}

describe("spans of turns played in worker threads", () => {
  it("are exported by the main thread's SDK as the same tree as turns played in the main thread", async () => {
    const inMain = await conversation(
      new InProcessPlayer(new Agent(graph!, { model: new OfflineModel(), tools: { whoami } })),
      "main",
    );
    const inWorkers = await conversation(pool, "workers");
    // Three turns, each with its nodes, a model call and a tool call under them; the last failed.
    expect(inMain.tree.map((t) => t.name)).toEqual([
      "invoke_agent Traced",
      "invoke_agent Traced",
      "invoke_agent Traced",
    ]);
    const nested = JSON.stringify(inMain.tree);
    for (const part of [
      '"name":"chat offline"',
      '"name":"execute_tool whoami"',
      '"name":"node answer"',
      '"error.type":"sandbox"',
    ])
      expect(nested).toContain(part);
    expect(inWorkers.tree).toEqual(inMain.tree);
    // In the trace of the application's span.
    const spans = exporter.getFinishedSpans();
    expect(new Set(spans.map((s) => s.spanContext().traceId))).toEqual(
      new Set([inWorkers.request.spanContext().traceId]),
    );
  });

  it("are not recorded when no SDK is registered", async () => {
    trace.disable();
    try {
      exporter.reset();
      await pool.play(request("quiet", null, null));
      expect(exporter.getFinishedSpans()).toEqual([]);
    } finally {
      provider.register();
    }
  });
});
