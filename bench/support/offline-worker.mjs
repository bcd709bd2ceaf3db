// The worker threads' script of bench/support/serve-offline.mjs: the graph it was given, with the
// offline model (no pause between words). Each says its thread id (Linux), so that bench/serve.mjs
// reads each worker's CPU from /proc apart from the server's own thread.
import { readlinkSync } from "node:fs";
import { Agent, OfflineModel } from "@autograms/runtime";
import { serveTurns } from "@autograms/server/worker";

try {
  console.log(`worker thread ${readlinkSync("/proc/thread-self").split("/").at(-1)}`);
} catch {
  // Not Linux: the bench then counts the workers with the process's other threads.
}
serveTurns(({ graph }) => new Agent(graph, { model: new OfflineModel() }));
