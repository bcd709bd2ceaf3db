import { createSandboxPool, type SandboxPool } from "@autograms/runtime";

/**
 * A sandbox pool whose children run the CLI's own bundle of the pool's child script
 * (cli/dist/autograms-sandbox-worker.mjs, beside the action bundles), for commands that run an
 * agent's code in child processes.
 */
export function cliSandboxPool(): SandboxPool {
  return createSandboxPool({ size: 1, workerPath: new URL("./autograms-sandbox-worker.mjs", import.meta.url) });
}
