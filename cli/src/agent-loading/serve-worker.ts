/**
 * The worker thread of `autograms serve` (bundled as cli/dist/autograms-serve-worker.mjs): makes
 * the agent from the graph the server loaded, with its own model client, tools and actions, and
 * plays the turns it is sent.
 */
import { serveTurns } from "@autograms/server/worker";
import type { ModelFlags } from "./model-options.js";
import { agentOf, type GraphAt } from "./open-agent.js";
import { hostShapeOf } from "./stand-in-agent.js";
import { closeOpened } from "./command-scope.js";

/** What `autograms serve` gives each worker. */
export interface ServeWorkerData extends GraphAt {
  flags: ModelFlags;
}

// What the worker tells the server of the actions it loaded lets the server's own thread hold the
// build without importing its modules (stand-in-agent.ts).
serveTurns(async (data) => {
  const { flags, ...at } = data as ServeWorkerData;
  const made = await agentOf(at, flags, { modelRequired: true });
  // What the agent opened (its MCP servers) is closed when the pool ends the worker: a child
  // process outlives the thread that started it.
  return { agent: made.agent, about: hostShapeOf(made.tools, made.actions), close: closeOpened };
});
