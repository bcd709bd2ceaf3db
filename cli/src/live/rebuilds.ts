import type { Agent } from "@autograms/runtime";
import { CliError } from "../agent-loading/cli-error.js";
import { plainText } from "../terminal/plain-text.js";
import { watchAgentFolder } from "./watch-files.js";

/**
 * `--watch`: the agent built again on every save, one build at a time (a save during a build
 * builds again once it is done). A build that fails (the compiler's diagnostics are already on
 * stderr) is reported and changes nothing: the last good build goes on. `use` takes each good one.
 */
export function rebuildOnSave(agentFile: string, build: () => Promise<Agent>, use: (agent: Agent) => Promise<void>): () => void {
  let building: Promise<void> | null = null;
  let again = false;
  const rebuild = async (): Promise<void> => {
    process.stderr.write(`(${agentFile} changed: building it again)\n`);
    let agent: Agent;
    try {
      agent = await build();
    } catch (err) {
      const why = err instanceof CliError ? err.message : err instanceof Error ? err.message : String(err);
      process.stderr.write(`(the edit does not build: ${plainText(why)}; the last good build goes on)\n`);
      return;
    }
    await use(agent);
  };
  const changed = () => {
    if (building) {
      again = true;
      return;
    }
    building = rebuild().catch((err) => void process.stderr.write(`(reload failed: ${err instanceof Error ? err.message : String(err)})\n`)).finally(() => {
      building = null;
      if (again) {
        again = false;
        changed();
      }
    });
  };
  return watchAgentFolder(agentFile, changed);
}
