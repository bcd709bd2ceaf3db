/**
 * Graceful shutdown (SIGTERM from a process manager or an orchestrator): drain at once (no new
 * turn, `/readyz` 503, streams of other processes' runs ended), let the runs in progress finish
 * within the grace period, then stop those left (each ends with `stopped`, nothing of it
 * committed, its thread released for another process) and close the HTTP server.
 */
import type { AutogramsApp } from "../context.js";

export interface ShutdownOptions {
  /** How long runs in progress may take to finish (ms). */
  graceMs: number;
}

export interface ShutdownReport {
  /** Runs that finished within the grace period. */
  finished: number;
  /** Runs stopped when it ended. */
  stopped: number;
}

export async function shutdown(server: AutogramsApp, options: ShutdownOptions): Promise<ShutdownReport> {
  const { runs, lifecycle } = server.ctx;
  lifecycle.drain();
  const atStart = runs.running;
  const deadline = Date.now() + options.graceMs;
  let timer: NodeJS.Timeout | undefined;
  // Runs taken just before the drain (a waiter of `enqueue`) may start meanwhile: wait for those too.
  while (runs.running > 0 && Date.now() < deadline) {
    await Promise.race([runs.settled(), new Promise((r) => (timer = setTimeout(r, deadline - Date.now())))]);
    clearTimeout(timer);
  }
  const stopped = runs.running;
  await server.close();
  return { finished: Math.max(0, atStart - stopped), stopped };
}
