/**
 * `serve --watch`: each save builds the agent again (rebuilds.ts) and a good build is handed to the
 * server, which serves it from the next request on; a build that fails is reported to it (the
 * playground says so) while the last good one goes on. The threads of the agent that cannot resume
 * on a new build are listed, so their owners hear of it before their next message is refused.
 */
import { PoolBuild, type RunningServer } from "@autograms/server";
import { checkThreads, type Store } from "@autograms/store";
import type { ServedBuild } from "../agent-loading/served-builds.js";
import { rebuildOnSave, type Build } from "./rebuilds.js";

/** Watches the agent's folder and serves each good build of it as `agent`; returns a function that stops watching. */
export function serveRebuilds(
  server: RunningServer,
  store: Store,
  agent: { file: string; name: string; first: ServedBuild; rebuild: Build<ServedBuild> },
): () => void {
  let served = agent.first;
  return rebuildOnSave(
    agent.file,
    agent.rebuild,
    async (next) => {
      const previous = served;
      served = next;
      server.serve(
        { agent: next.agent, sources: next.sources, ...(next.pool instanceof PoolBuild && { pool: next.pool }) },
        agent.name,
      );
      void server.ctx.runs.settled().then(() => previous.close());
      await reportStale(store, next);
    },
    (message, diagnostics) => server.buildFailed(message, diagnostics, agent.name),
    // A build made while the server stops is not served: its workers end with it.
    (built) => Promise.all([built.close(), built.pool instanceof PoolBuild && built.pool.close()]).then(() => {}),
  );
}

/** Says on stderr which threads of the agent cannot resume on the build served now, and which keep an old prompt. */
async function reportStale(store: Store, { agent }: ServedBuild): Promise<void> {
  // Ended threads are not waiting for anything: only those that cannot resume are news.
  const checks = await checkThreads(store, agent);
  const stale = checks.filter((c) => c.problem?.code === "stale_memory");
  process.stderr.write(
    `(serving the new build: ${stale.length === 0 ? "every thread of the agent can resume on it" : `${stale.length} thread${stale.length === 1 ? "" : "s"} cannot resume on it`})\n`,
  );
  for (const c of stale)
    process.stderr.write(
      `  thread ${c.id} cannot resume: ${c.problem!.message}; move it with autograms threads migrate ${c.id} --to NODE\n`,
    );
  // A thread goes on with the prompt it stored: an edited setPrompt text reaches it only when asked.
  const prompts = checks.filter((c) => c.prompts.length > 0 && c.problem === null);
  if (prompts.length)
    process.stderr.write(
      `  ${prompts.length} thread${prompts.length === 1 ? " keeps" : "s keep"} the old setPrompt text (${prompts.map((c) => c.id).join(", ")}): autograms threads migrate ID --to NODE --take-prompt gives the new one\n`,
    );
}
