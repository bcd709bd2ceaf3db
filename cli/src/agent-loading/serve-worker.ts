/**
 * The worker thread of `autograms serve` (bundled as cli/dist/autograms-serve-worker.mjs): makes
 * the agent from the graph the server loaded, with its own model client, tools and actions, and
 * plays the turns it is sent.
 */
import { serveTurns } from "@autograms/server/worker";
import type { ModelFlags } from "./model-options.js";
import { agentOf, type GraphAt } from "./open-agent.js";

/** What `autograms serve` gives each worker. */
export interface ServeWorkerData extends GraphAt {
  flags: ModelFlags;
}

serveTurns((data) => {
  const { flags, ...at } = data as ServeWorkerData;
  return agentOf(at, flags, { modelRequired: true }).then((made) => made.agent);
});
