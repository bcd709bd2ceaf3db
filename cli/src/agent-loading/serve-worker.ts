/**
 * The worker thread of `autograms serve` and `chat --watch` (bundled as
 * cli/dist/autograms-serve-worker.mjs): makes the agent from the graph the command loaded, with its
 * own model client, tools and actions, and plays the turns it is sent. Its MCP tools are the
 * command thread's (one connection per server for the process), called through it.
 */
import { serveTurns } from "@autograms/server/worker";
import type { ModelFlags } from "./model-options.js";
import { agentOf, type GraphAt } from "./open-agent.js";
import { hostShapeOf } from "./stand-in-agent.js";
import type { LoadedBundles } from "./tools.js";

/** What `autograms serve` gives each worker. */
export interface ServeWorkerData extends GraphAt {
  flags: ModelFlags;
}

// A later build made by this worker (a save that left the modules as they were: the same bundle)
// reuses the modules it imported, their state and all: their top-level code does not run again.
const imported: LoadedBundles = new Map();

// What the worker tells the server of the tools and actions it loaded lets the server's own thread
// hold the build without importing its modules (stand-in-agent.ts).
serveTurns(async (data, host) => {
  const { flags, ...at } = data as ServeWorkerData;
  const made = await agentOf(at, flags, { modelRequired: true, mcpTools: host.tools, bundles: imported });
  return { agent: made.agent, about: hostShapeOf(made.tools, made.actions) };
});
