/**
 * The agents `autograms serve` serves: the first build of each file given (served-builds.ts), each
 * agent under its name (its class's, the graph's `agent`). Two files whose agents have one name
 * cannot both be served: that is refused, naming both files, before anything listens.
 */
import { PoolBuild } from "@autograms/server";
import type { Build } from "../live/rebuilds.js";
import { CliError } from "./cli-error.js";
import { servedBuilds, type BuildSettings, type ServedBuild } from "./served-builds.js";

/** An agent file as it is served: its name, its first build and (--watch) how to build it again. */
export interface ServedAgent {
  file: string;
  name: string;
  first: ServedBuild;
  rebuild?: Build<ServedBuild>;
}

export async function servedAgents(files: readonly string[], settings: BuildSettings): Promise<ServedAgent[]> {
  const agents: ServedAgent[] = [];
  try {
    for (const file of files) {
      const { first, rebuild } = await servedBuilds(file, settings);
      const name = first.agent.graph.agent;
      agents.push({ file, name, first, ...(rebuild && { rebuild }) });
      const clash = agents.find((a) => a.name === name && a !== agents.at(-1));
      if (clash)
        throw new CliError(
          `${clash.file} and ${file} both define the agent '${name}': each agent served needs a name of its own (rename one's class)`,
        );
    }
  } catch (err) {
    // Builds made before the one that failed: a --watch build's workers are started already.
    await closeAll(agents);
    throw err;
  }
  return agents;
}

/** Lets go of the agents' first builds (and their workers, started under --watch) when they will not be served. */
export async function closeAll(agents: readonly ServedAgent[]): Promise<void> {
  await Promise.all(
    agents.map(({ first }) => Promise.all([first.close(), first.pool instanceof PoolBuild && first.pool.close()])),
  );
}
