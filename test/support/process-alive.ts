import { readFileSync } from "node:fs";
import { expect } from "vitest";

/**
 * Whether a process of this id runs (signal 0 checks without sending anything). A zombie (ended,
 * not yet reaped: an orphan whose reaper is slow) does not run.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return process.platform !== "linux";
  }
}

/** Waits up to `ms` for the process to end, and fails the test if it does not. */
export async function processGone(pid: number, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(isAlive(pid), `process ${pid} still runs`).toBe(false);
}
