/**
 * What every resume endpoint answers a reconnecting client (`GET /api/chat/:id/stream`,
 * `GET /api/threads/:id/runs/latest/stream`, `GET /ag-ui/:threadId/stream`): the frames after the
 * one `Last-Event-ID` names, of the run it names (http/event-id.ts), whatever protocol numbers
 * them. Without an id a client asks for the thread's run in progress, from its start. 204 when
 * there is nothing to send.
 */
import type { ServerContext } from "../context.js";
import { badRequest } from "../http/errors.js";
import { resumePoint } from "../http/event-id.js";
import { sseResponse, type SseFrame } from "../http/sse.js";
import { latestRun, namedRun, type NamedRun, type RunSource } from "../runs/run-source.js";

/** A protocol's frames of a run, those numbered after `after` only. */
export type RunFrames = (source: RunSource, after: number, signal: AbortSignal) => AsyncIterable<SseFrame>;

export async function resumeResponse(ctx: ServerContext, threadId: string, header: string | undefined, frames: RunFrames,
  headers: Record<string, string>, what: string, runId?: string): Promise<Response> {
  const point = resumePoint(header);
  if (point === null) throw badRequest(`Last-Event-ID: the id of the last ${what} received (RUN:N, as sent) is expected`, "Last-Event-ID");
  // The run named by the last frame received, else by the client (AG-UI's runId), else the one in progress.
  const named = point.runId ?? runId;
  let run: NamedRun | null;
  if (named !== undefined) {
    run = await namedRun(ctx, threadId, named);
  } else {
    const latest = await latestRun(ctx, threadId);
    run = latest?.inProgress ? { source: { kind: "run", runId: latest.runId }, inProgress: true } : null;
  }
  if (run === null) return new Response(null, { status: 204 });
  const { source } = run;
  if (run.inProgress) return sseResponse((signal) => frames(source, point.after, signal), headers);
  // A run that has ended is all in the store: read it once, and send what the client lacks of it (if anything).
  const rest: SseFrame[] = [];
  for await (const f of frames(source, point.after, new AbortController().signal)) rest.push(f);
  if (rest.length === 0) return new Response(null, { status: 204 });
  return sseResponse(async function* () {
    yield* rest;
  }, headers);
}
