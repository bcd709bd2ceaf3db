/**
 * What every resume endpoint answers a reconnecting client (`GET /api/chat/:id/stream`,
 * `GET /api/threads/:id/runs/latest/stream`, `GET /ag-ui/:threadId/stream`): the frames of the
 * thread's latest run after the one numbered `Last-Event-ID`, whatever protocol numbers them.
 * Without a number a client asks for a run in progress, from its start; with one, for what it
 * missed of the latest run, in progress or ended (`0`, before the first frame: all of it). 204
 * when there is nothing to send: no thread (a chat that has sent nothing yet), no run, nothing
 * after that number.
 */
import type { ServerContext } from "../context.js";
import { badRequest, HttpError } from "../http/errors.js";
import { lastEventId, sseResponse, type SseFrame } from "../http/sse.js";
import { latestRun, type RunSource } from "../runs/run-source.js";

/** A protocol's frames of a run, those numbered after `after` only. */
export type RunFrames = (source: RunSource, after: number, signal: AbortSignal) => AsyncIterable<SseFrame>;

export async function resumeResponse(ctx: ServerContext, threadId: string, header: string | undefined, frames: RunFrames,
  headers: Record<string, string>, what: string, nothing: () => Response = () => new Response(null, { status: 204 })): Promise<Response> {
  const given = lastEventId(header);
  if (given === null) throw badRequest(`Last-Event-ID: the number of the last ${what} received is expected`, "Last-Event-ID");
  const latest = await latestRun(ctx, threadId).catch((err: unknown) => {
    if (err instanceof HttpError && err.code === "unknown_thread") return null;
    throw err;
  });
  if (!latest || (given === undefined && !latest.inProgress)) return nothing();
  const after = given ?? 0;
  const source: RunSource = { kind: "run", runId: latest.runId };
  if (latest.inProgress) return sseResponse((signal) => frames(source, after, signal), headers);
  // A run that has ended is all in the store: read it once, and send what the client lacks of it (if anything).
  const rest: SseFrame[] = [];
  for await (const f of frames(source, after, new AbortController().signal)) rest.push(f);
  if (rest.length === 0) return nothing();
  return sseResponse(async function* () {
    yield* rest;
  }, headers);
}
