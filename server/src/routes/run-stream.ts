/**
 * A protocol's stream of a run, the one way each endpoint sends it: from its first frame, as the
 * answer to a message (`streamRun`), or resumed. What every resume endpoint answers a reconnecting client (`GET /api/chat/:id/stream`,
 * `GET /api/threads/:id/runs/latest/stream`, `GET /ag-ui/:threadId/stream`): the frames after the
 * one `Last-Event-ID` names, of the run it names (http/event-id.ts), whatever protocol numbers
 * them. Without an id a client asks for the thread's run in progress, from its start; with `0`
 * (before the first frame of whatever run) for the whole of the thread's latest run, in progress
 * or ended. Nothing to send (no thread yet: a chat that has sent nothing; no run; nothing after
 * that frame) is 204, or what the protocol's clients expect instead.
 */
import type { ServerContext } from "../context.js";
import { badRequest, HttpError } from "../http/errors.js";
import { resumePoint } from "../http/event-id.js";
import { sseResponse, type ReadyFrames, type SseFrame } from "../http/sse.js";
import { latestRun, namedRun, type NamedRun, type RunSource } from "../runs/run-source.js";
import type { NumberedRunEvent } from "../runs/run-events.js";

/**
 * A protocol's stream: its frames of a run (those numbered after `after`), its headers, and what
 * it calls a frame (in errors).
 */
export interface RunStream {
  frames: (source: RunSource, after: number, signal: AbortSignal) => AsyncIterable<SseFrame>;
  headers: Record<string, string>;
  what: string;
}

/**
 * A protocol's frames of a run's events (`framesOf` makes an event's), made a batch of events at a
 * time and handed out one by one without an async generator's step each: a CPU-heavy turn streams
 * thousands of steps, and each step through a chain of generators cost the server's thread more
 * than writing its frame.
 */
export function framesOfBatches(
  batches: AsyncIterator<NumberedRunEvent[]>,
  framesOf: (event: NumberedRunEvent) => SseFrame[],
): AsyncIterableIterator<SseFrame> & ReadyFrames {
  let ready: SseFrame[] = [];
  let at = 0;
  /** A call waiting for the next batch: a call made meanwhile waits for it (calls end in order). */
  let waiting: Promise<IteratorResult<SseFrame>> | null = null;
  const pull = async (): Promise<IteratorResult<SseFrame>> => {
    while (at >= ready.length) {
      const got = await batches.next();
      if (got.done) return { done: true, value: undefined };
      ready = got.value.flatMap(framesOf);
      at = 0;
    }
    return { done: false, value: ready[at++]! };
  };
  const frames: AsyncIterableIterator<SseFrame> & ReadyFrames = {
    // Not while a call waits: the frame is that call's.
    takeReady: () => (waiting === null && at < ready.length ? ready[at++] : undefined),
    next() {
      const made = frames.takeReady();
      if (made) return Promise.resolve({ done: false, value: made });
      const call = (waiting ?? Promise.resolve()).then(pull);
      waiting = call;
      const settled = () => {
        if (waiting === call) waiting = null;
      };
      call.then(settled, settled);
      return call;
    },
    async return() {
      await batches.return?.(undefined);
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]: () => frames,
  };
  return frames;
}

/** A message's answer: the run it started (or the turn it replays), streamed from its first frame. */
export function streamRun(stream: RunStream, source: RunSource): Response {
  return sseResponse((signal) => stream.frames(source, 0, signal), stream.headers);
}

export interface ResumeOptions {
  /** The run the client names itself (AG-UI's runId), when Last-Event-ID names none. */
  runId?: string;
  /** The answer when there is nothing to send (default: 204). */
  nothing?: () => Response;
}

export async function resumeResponse(
  ctx: ServerContext,
  threadId: string,
  header: string | undefined,
  { frames, headers, what }: RunStream,
  options: ResumeOptions = {},
): Promise<Response> {
  const nothing = options.nothing ?? (() => new Response(null, { status: 204 }));
  const point = resumePoint(header);
  if (point === null)
    throw badRequest(
      `Last-Event-ID: the id of the last ${what} received (RUN:N, as sent) is expected`,
      "Last-Event-ID",
    );
  // The run named by the last frame received, else by the client (AG-UI's runId), else the latest one.
  const named = point.runId ?? options.runId;
  let run: NamedRun | null;
  if (named !== undefined) {
    run = await namedRun(ctx, threadId, named);
  } else {
    const latest = await latestRun(ctx, threadId).catch((err: unknown) => {
      if (err instanceof HttpError && err.code === "unknown_thread") return null;
      throw err;
    });
    const asked = header !== undefined && header.trim() !== "";
    run =
      latest && (latest.inProgress || asked)
        ? { source: { kind: "run", runId: latest.runId }, inProgress: latest.inProgress }
        : null;
  }
  if (run === null) return nothing();
  const { source } = run;
  if (run.inProgress) return sseResponse((signal) => frames(source, point.after, signal), headers);
  if (source.kind === "run") await refuseExpired(ctx, threadId, source.runId);
  // A run that has ended is all in the store: read it once, and send what the client lacks of it (if anything).
  const rest: SseFrame[] = [];
  for await (const f of frames(source, point.after, new AbortController().signal)) rest.push(f);
  if (rest.length === 0) return nothing();
  return sseResponse(async function* () {
    yield* rest;
  }, headers);
}

/**
 * A run that ended before the resume window (AppOptions.resumeWindowMs) has had its events
 * dropped, all at once: its record still counts them, the store has none. 410, at once, whatever
 * frame the client names (the frames read would wait for events that will never come).
 */
async function refuseExpired(ctx: ServerContext, threadId: string, runId: string): Promise<void> {
  const run = await ctx.store.run(runId);
  if (!run || run.lastSeq === 0 || (await ctx.store.runEvents(runId, 0, 1)).length > 0) return;
  throw new HttpError(
    410,
    "run_expired",
    `run ${runId} of thread ${threadId} ended too long ago to be resumed: its events are kept for a while after it ends, then dropped; what it committed is in the thread's history (GET /api/threads/${threadId})`,
    "Last-Event-ID",
  );
}
