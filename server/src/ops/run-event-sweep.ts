/**
 * The resume window: a run's events are kept for a client to resume its stream, and dropped once
 * the run has ended at least `windowMs` ago (the turn's row keeps its trace: the thread's
 * history, a replay and `threads show` read that). One sweep per process, not a timer per run;
 * several processes on one store sweep the same rows harmlessly (a row is deleted once).
 */
import type { Store } from "@autograms/store";

/** How long a run's events stay resumable after it ends, by default (ms). */
export const DEFAULT_RESUME_WINDOW_MS = 300_000;

/** Starts the sweep; the function it returns stops it. A failed sweep is tried again at the next tick. */
export function sweepRunEvents(store: Store, windowMs: number, onError: (err: unknown) => void): () => void {
  let sweeping = false;
  // A quarter of the window (an event outlives it by at most that much), between one second and one minute.
  const everyMs = Math.min(60_000, Math.max(1_000, windowMs / 4));
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    store
      .dropRunEvents(windowMs)
      .catch(onError)
      .finally(() => (sweeping = false));
  }, everyMs);
  // It never keeps the process up: a server that is closed stops it, one left open exits anyway.
  timer.unref();
  return () => clearInterval(timer);
}
