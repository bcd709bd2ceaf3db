// The server process bench/serve.mjs measures: the built @autograms/server serving a graph on a
// store with the offline model, without the pause between words that `autograms serve --offline`
// makes for demos (so the server's own work, not a model's pace, is what is measured); turns in
// N worker threads (0: in the server's thread); a run's events dropped RESUME_WINDOW_MS after it
// ends (default: the server's). Prints `listening on URL` once it serves.
//
//   node bench/support/serve-offline.mjs GRAPH.json STORE_URL WORKERS [RESUME_WINDOW_MS]
import { readFileSync } from "node:fs";
import { Agent, OfflineModel } from "@autograms/runtime";
import { openStore } from "@autograms/store";
import { listen } from "@autograms/server";

const [graphFile, storeUrl, workers, resumeWindowMs] = process.argv.slice(2);
const graph = JSON.parse(readFileSync(graphFile, "utf8"));
const store = await openStore(storeUrl);
const agent = new Agent(graph, { model: new OfflineModel() });
const server = await listen({
  agent,
  store,
  port: 0,
  ...(resumeWindowMs === undefined ? {} : { resumeWindowMs: Number(resumeWindowMs) }),
  // A turn of the CPU-heavy agent may take seconds on a loaded machine: the time budget is not what is measured.
  ...(Number(workers) > 0
    ? {
        workers: {
          script: new URL("./offline-worker.mjs", import.meta.url),
          data: { graph },
          size: Number(workers),
          budgets: { timeMs: 120_000 },
          // As `autograms serve` gives it for an agent with no tool or action modules (the bench's
          // agents have none): turns played in this thread until one proves CPU-heavy.
          inline: agent,
        },
      }
    : { budgets: { timeMs: 120_000 } }),
});
console.log(`listening on ${server.url}`);
process.on("SIGTERM", async () => {
  await server.close();
  await store.close();
  process.exit(0);
});
