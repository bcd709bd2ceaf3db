// The main thread's queue of spans relayed from worker threads: queuing a batch is all a message
// costs; a full queue drops batches and counts them rather than holding anything up; spans are made
// through the SDK only while the exporter has room, a batch at a time, between other work; while
// it is half full, turns that start are not traced (counted).
import { context, propagation, trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  configureSpanQueue,
  drainSpanQueue,
  droppedSpans,
  queuedSpans,
  relaySpans,
  turnTrace,
  untracedTurns,
  type RelayedSpan,
} from "@autograms/runtime/telemetry";

const exporter = new InMemorySpanExporter();
let provider: NodeTracerProvider;
beforeAll(() => {
  provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  provider.register();
});
// The SDK registers itself on the process's global object; other test files share this process.
afterAll(async () => {
  drainSpanQueue();
  await provider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
});

let ids = 0;
/** A turn's batch: its root span and `children` spans under it, as a worker sends them. */
function turnBatch(children: number): RelayedSpan[] {
  const traceId = (++ids).toString(16).padStart(32, "0");
  const rootId = (++ids).toString(16).padStart(16, "0");
  const span = (name: string, spanId: string, parentSpanId?: string): RelayedSpan => ({
    scope: { name: "test" },
    name,
    kind: 0,
    spanId,
    traceId,
    ...(parentSpanId !== undefined && { parentSpanId }),
    traceFlags: 1,
    start: 1,
    end: 2,
    attributes: { n: children },
    events: [],
  });
  const inner = Array.from({ length: children }, () => span("node", (++ids).toString(16).padStart(16, "0"), rootId));
  return [...inner, span("invoke_agent", rootId)];
}

const turnOfLoop = () => new Promise((resolve) => setImmediate(resolve));

describe("the relay's span queue", () => {
  it("drops what does not fit, counting it, and makes spans only while the exporter has room", async () => {
    let room = 0;
    configureSpanQueue({ maxQueueSize: 100, room: () => room });
    const before = droppedSpans();

    // The exporter has no room: batches wait, none is made; past the bound they are dropped and
    // counted, each call returning at once.
    for (let i = 0; i < 10; i++) relaySpans(turnBatch(9));
    expect(queuedSpans()).toBe(100);
    const started = performance.now();
    for (let i = 0; i < 1000; i++) relaySpans(turnBatch(9));
    expect(performance.now() - started).toBeLessThan(500);
    expect(queuedSpans()).toBe(100);
    expect(droppedSpans() - before).toBe(10_000);
    await turnOfLoop();
    expect(exporter.getFinishedSpans()).toHaveLength(0);

    // Room for two batches: two are made, whole (each root with its children), the rest wait.
    room = 20;
    await new Promise((resolve) => setTimeout(resolve, 120));
    room = 0;
    const made = exporter.getFinishedSpans();
    expect(made.length).toBeGreaterThanOrEqual(20);
    expect(made.length % 10).toBe(0);
    const roots = made.filter((s) => s.name === "invoke_agent");
    for (const s of made.filter((s) => s.name === "node"))
      expect(roots.map((r) => r.spanContext().spanId)).toContain(s.parentSpanContext?.spanId);
    expect(queuedSpans()).toBe(100 - made.length);

    // Stopping makes what is left, room or not.
    drainSpanQueue();
    expect(queuedSpans()).toBe(0);
    expect(exporter.getFinishedSpans()).toHaveLength(100);
  });

  it("does not trace the turns that start while the queue is half full, counting them", () => {
    configureSpanQueue({ maxQueueSize: 100, room: () => 0 });
    drainSpanQueue();
    const before = untracedTurns();
    relaySpans(turnBatch(39));
    expect(turnTrace()).toEqual({});
    relaySpans(turnBatch(9));
    expect(queuedSpans()).toBe(50);
    expect(turnTrace()).toBeUndefined();
    expect(turnTrace()).toBeUndefined();
    expect(untracedTurns() - before).toBe(2);
    drainSpanQueue();
    expect(turnTrace()).toEqual({});
  });

  it("makes a batch a turn of the event loop at a time, not all at once", async () => {
    exporter.reset();
    configureSpanQueue({ maxQueueSize: 100_000, room: () => Number.POSITIVE_INFINITY });
    for (let i = 0; i < 10; i++) relaySpans(turnBatch(99));
    // Nothing is made while the message is handled.
    expect(exporter.getFinishedSpans()).toHaveLength(0);
    await turnOfLoop();
    const first = exporter.getFinishedSpans().length;
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(1000);
    drainSpanQueue();
    expect(exporter.getFinishedSpans()).toHaveLength(1000);
  });
});
