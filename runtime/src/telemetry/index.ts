/// <reference types="node" preserve="true" />
// `@autograms/runtime/telemetry`: spans of turns played in worker threads, exported by the main
// thread's SDK (a turn pool uses it). A subpath of its own, so that the main entry's types do not
// need @opentelemetry/api, an optional peer dependency.
export {
  recordSpans,
  relayTrace,
  replaySpans,
  tracerProviderRegistered,
  type RelayParent,
  type RelayTrace,
  type RelayedSpan,
  type SpanRecorder,
} from "./relay.js";
export {
  configureSpanQueue,
  countDroppedSpans,
  drainSpanQueue,
  droppedSpans,
  queuedSpans,
  relaySpans,
  turnTrace,
  untracedTurns,
  type SpanQueueOptions,
} from "./relay-queue.js";
