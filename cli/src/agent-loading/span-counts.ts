// What the SDK's BatchSpanProcessor says of its spans, read through the meter provider it reports
// its own metrics to (`selfObsMeterProvider`): how many it sent, failed to send or dropped because
// its queue was full, and how many wait in its queue. The command line prints the spans not sent
// when it stops, feeds the drops into the one count of dropped spans (`/metrics`), and has the
// relay of worker threads' spans wait while the queue has no room.
import type { MeterProvider } from "@opentelemetry/api";

/** The processor's counter of the spans whose processing ended (semantic conventions for SDK metrics). */
const PROCESSED = "otel.sdk.processor.span.processed";
const QUEUE_SIZE = "otel.sdk.processor.span.queue.size";

export interface SpanCounts {
  /** Spans the collector took. */
  sent: number;
  /** Spans whose export failed (no answer in time, refused, not reachable). */
  failed: number;
  /** Spans dropped because the processor's queue was full. */
  dropped: number;
  /** Spans waiting in the processor's queue now. */
  queued(): number;
  meterProvider: MeterProvider;
}

type Observe = (result: { observe(value: number): void }) => void;

export function spanCounts(dropped: (count: number) => void): SpanCounts {
  let queueSize: Observe | undefined;
  const counts: SpanCounts = {
    sent: 0,
    failed: 0,
    dropped: 0,
    queued() {
      let size = 0;
      queueSize?.({ observe: (value) => (size = value) });
      return size;
    },
    meterProvider: { getMeter: () => meter } as unknown as MeterProvider,
  };
  const ignored = { add() {}, record() {}, addCallback() {}, removeCallback() {} };
  // Every instrument the processor may make; only two are read.
  const meter = new Proxy(
    {},
    {
      get: (_target, method) => (name: string) => {
        if (name === PROCESSED && method === "createCounter")
          return {
            add(count: number, attributes: Record<string, unknown> = {}) {
              const error = attributes["error.type"];
              if (error === "queue_full") {
                counts.dropped += count;
                dropped(count);
              } else if (error === undefined) counts.sent += count;
              else counts.failed += count;
            },
          };
        if (name === QUEUE_SIZE)
          return {
            addCallback: (callback: Observe) => (queueSize = callback),
            removeCallback: () => (queueSize = undefined),
          };
        return ignored;
      },
    },
  );
  return counts;
}
