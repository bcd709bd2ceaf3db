/**
 * One build of an agent as it is served: a request takes the build served when it starts and uses
 * that one throughout, whatever is served meanwhile (`serve --watch` serves new builds). A build
 * is never changed: a new one takes its place whole (served-agents.ts).
 */
import type { Agent } from "@autograms/runtime";
import type { PlaygroundSource } from "./playground/routes.js";
import type { TurnPlayer } from "./workers/turn-player.js";

export interface ServedBuild {
  /** The agent's name (its graph's), under which it is served and its threads are kept. */
  readonly name: string;
  /** The agent; with workers, this thread's view of the agent they made (its graph, for the stale check, the threads API and the playground). */
  readonly agent: Agent;
  /** Where its turns are played. */
  readonly player: TurnPlayer;
  /** 1 for the agent's first build, one more for each served after it. */
  readonly number: number;
  /** The sources the playground shows: the agent's file as it was compiled (the graph's lines point into it) and its modules. */
  readonly sources: readonly PlaygroundSource[];
}

/**
 * The outcome of an agent's last build (`serve --watch` builds it again on every save): `ok`, or
 * why the latest one failed (the compiler's diagnostics, tsc-style) while the last good build goes on.
 */
export type BuildStatus = ({ ok: true } | { ok: false; message: string; diagnostics: string }) & {
  at: number;
  /** New builds may come (`serve --watch`): a page polls for them. */
  watching: boolean;
};

/** What serving a build needs: its agent, and (with workers) the player whose workers made it. */
export interface BuildToServe {
  agent: Agent;
  /** A TurnPool whose workers made the agent (`ready()` resolved), or a PoolBuild on an earlier build's workers. */
  pool?: TurnPlayer;
  /** The playground's sources of this build (default: none). */
  sources?: readonly PlaygroundSource[];
}

export function servedBuild(build: ServedBuild): ServedBuild {
  return Object.freeze({ ...build, sources: Object.freeze([...build.sources]) });
}
