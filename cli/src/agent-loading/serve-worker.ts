/**
 * The worker thread of `autograms serve` (bundled as cli/dist/autograms-serve-worker.mjs): makes
 * the agent from the graph the server loaded, with its own model client, tools and actions, and
 * plays the turns it is sent. Its MCP tools are the server thread's (one connection per server for
 * the process), called through it.
 */
import { serveTurns } from "@autograms/server/worker";
import type { ModelFlags } from "./model-options.js";
import { agentOf, type GraphAt } from "./open-agent.js";
import { hostShapeOf } from "./stand-in-agent.js";

/** What `autograms serve` gives each worker. */
export interface ServeWorkerData extends GraphAt {
  flags: ModelFlags;
}

// What the worker tells the server of the tools and actions it loaded lets the server's own thread
// hold the build without importing its modules (stand-in-agent.ts).
serveTurns(async (data, host) => {
  const { flags, ...at } = data as ServeWorkerData;
  const made = await agentOf(at, flags, { modelRequired: true, mcpTools: host.tools });
  return { agent: made.agent, about: hostShapeOf(made.tools, made.actions) };
});
