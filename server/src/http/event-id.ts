/**
 * SSE event ids name their run: `RUN:N` is the Nth frame of run RUN, as the stream's protocol
 * numbers its frames (the run's events on the run event stream, the UI message stream's frames,
 * AG-UI events), from 1. A client that lost its stream sends the last id it received as
 * `Last-Event-ID` and gets exactly the frames of that run after it, from any process: a resume
 * never crosses runs. `RUN:0` asks for the whole of run RUN; `0` or no id at all, for the
 * thread's run in progress from its start.
 */
interface ResumePoint {
  /** The run named; null: the thread's run in progress. */
  runId: string | null;
  /** The number of the last frame received (0: none). */
  after: number;
}

/** Run ids: the server's (UUIDs), a client's AG-UI run id, or `turn-N` for a replayed turn. */
export const RUN_ID = /^[A-Za-z0-9_.-]{1,200}$/;

/** A frame's number in an event id. */
const FRAME_NUMBER = /^\d{1,15}$/;

/** What `resumePoint` takes: `0`, or `RUN:N` (for the API's description). */
export const LAST_EVENT_ID = new RegExp(`^(0|${RUN_ID.source.slice(1, -1)}:${FRAME_NUMBER.source.slice(1, -1)})$`);

export const isRunId = (id: string): boolean => RUN_ID.test(id);

export function eventId(runId: string, n: number): string {
  return `${runId}:${n}`;
}

/** The run and frame a `Last-Event-ID` names; null when it is not one this server gave. */
export function resumePoint(header: string | undefined): ResumePoint | null {
  const id = header?.trim() ?? "";
  if (id === "" || id === "0") return { runId: null, after: 0 };
  const at = id.lastIndexOf(":");
  const [runId, n] = [id.slice(0, at), id.slice(at + 1)];
  if (at <= 0 || !isRunId(runId) || !FRAME_NUMBER.test(n)) return null;
  return { runId, after: Number(n) };
}
