// The main thread's side of the relay, between the worker threads' turns and the exporter: spans
// arrive as fast as the workers play turns, and the exporter sends them as fast as its collector
// answers. Making a span again through the SDK is work on the thread that serves every request,
// so a message of spans is only queued as it arrives; the queue is bounded and drops what does not
// fit, counting it (as the SDK's BatchSpanProcessor drops and counts at its own queue); it is made
// into spans a turn's batch at a time between other work, and only while the exporter has room
// for them: spans it would drop are not made first. While the queue is half full, the turns that
// start are not traced at all: recording their spans would cost the workers what export is
// meant to observe, for spans that would be dropped.
import { relayTrace, replaySpans, type RelayedSpan, type RelayTrace } from "./relay.js";

export interface SpanQueueOptions {
  /** Spans queued at most; a batch that does not fit is dropped whole (default 2048, as the SDK's queue). */
  maxQueueSize?: number;
  /** How many spans the exporter can take now (the free places of its queue); unbounded when not given. */
  room?: () => number;
}

/** Spans made again per turn of the event loop, at most (a batch larger than this is made whole, alone). */
const SLICE = 512;
/** How soon to look again when the exporter had no room. */
const RETRY_MS = 50;

let maxQueueSize = 2048;
let room: () => number = () => Number.POSITIVE_INFINITY;
const queue: RelayedSpan[][] = [];
let queued = 0;
let dropped = 0;
let untraced = 0;
let scheduled: NodeJS.Immediate | NodeJS.Timeout | undefined;

/** Sets the queue's bound and the exporter's room (the command line does, from the SDK it starts). */
export function configureSpanQueue(options: SpanQueueOptions): void {
  if (options.maxQueueSize !== undefined) maxQueueSize = options.maxQueueSize;
  if (options.room) room = options.room;
}

/** Spans dropped since the process started: by this queue, and as reported by `countDroppedSpans`. */
export function droppedSpans(): number {
  return dropped;
}

/** Counts spans dropped elsewhere on their way out (the exporter's own queue), so that one figure says how many were lost. */
export function countDroppedSpans(count: number): void {
  dropped += count;
}

/** Spans waiting in the queue. */
export function queuedSpans(): number {
  return queued;
}

/** Turns not traced because the queue was half full when they started. */
export function untracedTurns(): number {
  return untraced;
}

/**
 * What a worker needs to trace a turn that starts now (`relayTrace`), or undefined when nothing
 * would export its spans or the exporter is behind (the turn is then counted as not traced).
 */
export function turnTrace(): RelayTrace | undefined {
  const trace = relayTrace();
  if (trace === undefined || queued < maxQueueSize / 2) return trace;
  untraced++;
  return undefined;
}

/** Queues a worker's batch of spans (one turn's) to be made again through the registered provider; dropped when the queue is full. */
export function relaySpans(spans: RelayedSpan[]): void {
  if (spans.length === 0) return;
  if (queued + spans.length > maxQueueSize) {
    dropped += spans.length;
    return;
  }
  queue.push(spans);
  queued += spans.length;
  schedule(0);
}

/** Makes every queued span now, room or not (the process is stopping: the exporter flushes next). */
export function drainSpanQueue(): void {
  clear();
  while (queue.length > 0) take();
}

function schedule(delayMs: number): void {
  if (scheduled !== undefined) return;
  // Unreferenced: spans waiting for room do not keep a process alive; stopping drains them.
  scheduled = delayMs === 0 ? setImmediate(drain) : setTimeout(drain, delayMs);
  scheduled.unref();
}

function clear(): void {
  if (scheduled === undefined) return;
  clearImmediate(scheduled as NodeJS.Immediate);
  clearTimeout(scheduled as NodeJS.Timeout);
  scheduled = undefined;
}

function drain(): void {
  scheduled = undefined;
  let made = 0;
  while (queue.length > 0 && made < SLICE) {
    // A batch is made whole (its spans' parents are found within it); a large one once the
    // exporter can take a slice of it, the exporter dropping (and counting) what it cannot take.
    if (room() < Math.min(queue[0]!.length, SLICE, maxQueueSize)) break;
    made += take();
  }
  if (queue.length > 0) schedule(made > 0 ? 0 : RETRY_MS);
}

function take(): number {
  const spans = queue.shift()!;
  queued -= spans.length;
  replaySpans(spans);
  return spans.length;
}
