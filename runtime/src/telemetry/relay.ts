// Spans made in one thread and exported by another: turns played in worker threads are traced by
// the SDK registered in the process's main thread (`autograms serve --workers`, a turn pool).
//
// Why a relay, and not an SDK registered in each worker from the same configuration: the main
// thread's SDK may be anything an application registered (its exporter, sampler, processors,
// resource), which a worker cannot rebuild; one exporter per process also sends one batch stream
// and is flushed once when the process stops, where a worker's would be lost when the pool ends
// it. So a worker records the spans of its turns with the small recorder below (through
// @opentelemetry/api, as the runtime makes them), and sends each turn's spans, once its root span
// ends, to the main thread, which makes them again, with their names, kinds, times, attributes,
// events, status and parent/child structure, through its registered tracer provider.
import type {
  Attributes,
  AttributeValue,
  Context,
  ContextManager,
  Span,
  SpanContext,
  SpanOptions,
  SpanStatus,
  TimeInput,
  Tracer,
  TracerProvider,
} from "@opentelemetry/api";
import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";
import { otelApi, type OtelApi } from "./otel-api.js";

/** A finished span as plain data (structured-cloned between threads). */
export interface RelayedSpan {
  scope: { name: string; version?: string };
  name: string;
  kind: number;
  spanId: string;
  traceId: string;
  /** The parent's id: a span of the same batch, or the main thread's span the turn ran under. */
  parentSpanId?: string;
  traceFlags: number;
  /** Milliseconds since the epoch. */
  start: number;
  end: number;
  attributes: Attributes;
  events: { name: string; time: number; attributes?: Attributes }[];
  status?: SpanStatus;
}

/** The main thread's span a turn runs under, as plain data. */
export interface RelayParent {
  traceId: string;
  spanId: string;
  traceFlags: number;
}

/** What the main thread sends with a turn when it traces: the span the turn runs under, if any. */
export interface RelayTrace {
  parent?: RelayParent;
}

/** A turn's spans are dropped beyond this many (as an SDK's bounded queue drops them). */
const MAX_BATCH = 10_000;

let noopProvider: TracerProvider | undefined;

/** Whether an SDK is registered through @opentelemetry/api in this thread. */
export function tracerProviderRegistered(): boolean {
  const api = otelApi();
  if (!api) return false;
  const provider = api.trace.getTracerProvider() as TracerProvider & { getDelegate?: () => TracerProvider };
  // Without a registration, the API's provider delegates to its no-op provider, one object per copy of the API.
  noopProvider ??= new api.ProxyTracerProvider().getDelegate();
  return (provider.getDelegate?.() ?? provider) !== noopProvider;
}

/**
 * The main thread's side, when a turn starts: what the worker needs to trace it, or undefined when
 * nothing would export its spans.
 */
export function relayTrace(): RelayTrace | undefined {
  const api = otelApi();
  if (!api || !tracerProviderRegistered()) return undefined;
  const parent = api.trace.getSpanContext(api.context.active());
  return parent && api.trace.isSpanContextValid(parent)
    ? { parent: { traceId: parent.traceId, spanId: parent.spanId, traceFlags: parent.traceFlags } }
    : {};
}

/** The main thread's side: makes a worker's batch of spans again through the registered provider. */
export function replaySpans(spans: readonly RelayedSpan[]): void {
  const api = otelApi();
  if (!api || spans.length === 0) return;
  const ids = new Set(spans.map((s) => s.spanId));
  const children = new Map<string | undefined, RelayedSpan[]>();
  for (const s of spans) {
    const parent = s.parentSpanId !== undefined && ids.has(s.parentSpanId) ? s.parentSpanId : undefined;
    children.set(parent, [...(children.get(parent) ?? []), s]);
  }
  const make = (s: RelayedSpan, parent: Context) => {
    const span = api.trace
      .getTracer(s.scope.name, s.scope.version)
      .startSpan(s.name, { kind: s.kind, attributes: s.attributes, startTime: s.start }, parent);
    for (const e of s.events) span.addEvent(e.name, e.attributes, e.time);
    if (s.status) span.setStatus(s.status);
    const inside = api.trace.setSpan(api.ROOT_CONTEXT, span);
    for (const child of children.get(s.spanId) ?? []) make(child, inside);
    span.end(s.end);
  };
  for (const root of children.get(undefined) ?? []) {
    const parent =
      root.parentSpanId === undefined
        ? api.ROOT_CONTEXT
        : api.trace.setSpanContext(api.ROOT_CONTEXT, {
            traceId: root.traceId,
            spanId: root.parentSpanId,
            traceFlags: root.traceFlags,
          });
    make(root, parent);
  }
}

/** The worker's side: runs turns under the main thread's trace and hands over their spans. */
export interface SpanRecorder {
  /** Runs `work` (a turn) so that its spans are recorded, under the main thread's `parent`. */
  run<T>(trace: RelayTrace, work: () => Promise<T>): Promise<T>;
}

/**
 * Registers the recorder as this thread's tracer provider (and a context manager, so that a span
 * is current while it runs); `send` gets each turn's spans when its root span ends. Undefined when
 * @opentelemetry/api is not installed, or another SDK is registered in this thread (it exports).
 */
export function recordSpans(send: (spans: RelayedSpan[]) => void): SpanRecorder | undefined {
  const api = otelApi();
  if (!api || tracerProviderRegistered()) return undefined;
  const traced = api.createContextKey("autograms relayed trace");
  const contexts = new LocalContextManager(api);
  if (!api.context.setGlobalContextManager(contexts)) return undefined;
  const provider: TracerProvider = {
    getTracer: (name, version) =>
      new RecordingTracer(api, { name, ...(version !== undefined && { version }) }, traced, send),
  };
  if (!api.trace.setGlobalTracerProvider(provider)) return undefined;
  return {
    run(trace, work) {
      let ctx = api.context.active().setValue(traced, true);
      if (trace.parent) ctx = api.trace.setSpanContext(ctx, { ...trace.parent, isRemote: true });
      return api.context.with(ctx, work);
    },
  };
}

class LocalContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();

  constructor(private readonly api: OtelApi) {}

  active(): Context {
    return this.storage.getStore() ?? this.api.ROOT_CONTEXT;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    context: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.storage.run(context, () => fn.apply(thisArg, args));
  }

  bind<T>(context: Context, target: T): T {
    if (typeof target !== "function") return target;
    const fn = target as unknown as (...args: unknown[]) => unknown;
    return ((...args: unknown[]) => this.with(context, fn, undefined, ...args)) as T;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.storage.disable();
    return this;
  }
}

/** The spans of one turn in a worker: sent together when the first (the turn's) ends. */
interface Batch {
  spans: RelayedSpan[];
  sent: boolean;
}

const hex = (bytes: number) => randomBytes(bytes).toString("hex");
const epochMs = (time?: TimeInput): number =>
  time === undefined
    ? performance.timeOrigin + performance.now()
    : time instanceof Date
      ? time.getTime()
      : Array.isArray(time)
        ? time[0] * 1000 + time[1] / 1e6
        : // A number below the time origin is a performance.now() reading, as the SDK reads it.
          time < performance.timeOrigin
          ? performance.timeOrigin + time
          : time;

class RecordingTracer implements Tracer {
  constructor(
    private readonly api: OtelApi,
    private readonly scope: RelayedSpan["scope"],
    private readonly traced: symbol,
    private readonly send: (spans: RelayedSpan[]) => void,
  ) {}

  startSpan(name: string, options: SpanOptions = {}, context = this.api.context.active()): Span {
    const parent = options.root ? undefined : this.api.trace.getSpan(context);
    let batch: Batch;
    let traceId: string;
    let parentSpanId: string | undefined;
    let traceFlags = this.api.TraceFlags.SAMPLED;
    if (parent instanceof RecordingSpan) {
      batch = parent.batch;
      ({ traceId, spanId: parentSpanId } = parent.spanContext());
    } else if (context.getValue(this.traced)) {
      batch = { spans: [], sent: false };
      const remote = parent?.spanContext();
      if (remote && this.api.trace.isSpanContextValid(remote)) {
        ({ traceId, spanId: parentSpanId, traceFlags } = remote);
      } else traceId = hex(16);
    } else return this.api.trace.wrapSpanContext(this.api.INVALID_SPAN_CONTEXT);
    const record: RelayedSpan = {
      scope: this.scope,
      name,
      kind: options.kind ?? this.api.SpanKind.INTERNAL,
      spanId: hex(8),
      traceId,
      ...(parentSpanId !== undefined && { parentSpanId }),
      traceFlags,
      start: epochMs(options.startTime),
      end: 0,
      attributes: {},
      events: [],
    };
    const span = new RecordingSpan(record, batch, parent instanceof RecordingSpan, (spans) => this.send(spans));
    if (options.attributes) span.setAttributes(options.attributes);
    return span;
  }

  startActiveSpan<F extends (span: Span) => unknown>(name: string, ...rest: unknown[]): ReturnType<F> {
    const fn = rest.pop() as F;
    const [options, context] = rest as [SpanOptions | undefined, Context | undefined];
    const parent = context ?? this.api.context.active();
    const span = this.startSpan(name, options, parent);
    return this.api.context.with(this.api.trace.setSpan(parent, span), () => fn(span) as ReturnType<F>);
  }
}

class RecordingSpan implements Span {
  private ended = false;

  constructor(
    private readonly record: RelayedSpan,
    readonly batch: Batch,
    private readonly child: boolean,
    private readonly send: (spans: RelayedSpan[]) => void,
  ) {}

  spanContext(): SpanContext {
    const { traceId, spanId, traceFlags } = this.record;
    return { traceId, spanId, traceFlags };
  }

  setAttribute(key: string, value: AttributeValue): this {
    if (!this.ended && value !== undefined && value !== null) this.record.attributes[key] = value;
    return this;
  }

  setAttributes(attributes: Attributes): this {
    for (const [k, v] of Object.entries(attributes)) if (v !== undefined) this.setAttribute(k, v);
    return this;
  }

  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    if (this.ended) return this;
    const isTime =
      typeof attributesOrTime === "number" || attributesOrTime instanceof Date || Array.isArray(attributesOrTime);
    this.record.events.push({
      name,
      time: epochMs(isTime ? (attributesOrTime as TimeInput) : time),
      ...(!isTime && attributesOrTime !== undefined && { attributes: attributesOrTime as Attributes }),
    });
    return this;
  }

  addLink(): this {
    return this;
  }

  addLinks(): this {
    return this;
  }

  setStatus(status: SpanStatus): this {
    if (!this.ended) this.record.status = { ...status };
    return this;
  }

  updateName(name: string): this {
    if (!this.ended) this.record.name = name;
    return this;
  }

  end(endTime?: TimeInput): void {
    if (this.ended) return;
    this.ended = true;
    this.record.end = epochMs(endTime);
    const { batch } = this;
    // A span that ends after its turn's was sent has no parent on the other side any more: dropped.
    if (batch.sent || batch.spans.length >= MAX_BATCH) return;
    batch.spans.push(this.record);
    if (this.child) return;
    batch.sent = true;
    this.send(batch.spans);
  }

  isRecording(): boolean {
    return !this.ended;
  }

  /** As the SDK's Span records one: an `exception` event with its type, message and stack. */
  recordException(exception: unknown, time?: TimeInput): void {
    const attributes: Attributes = {};
    if (typeof exception === "string") attributes["exception.message"] = exception;
    else if (exception) {
      const e = exception as { name?: string; message?: string; stack?: string; code?: string | number };
      if (e.code) attributes["exception.type"] = String(e.code);
      else if (e.name) attributes["exception.type"] = e.name;
      if (e.message) attributes["exception.message"] = e.message;
      if (e.stack) attributes["exception.stacktrace"] = e.stack;
    }
    if (attributes["exception.type"] || attributes["exception.message"]) this.addEvent("exception", attributes, time);
  }
}
