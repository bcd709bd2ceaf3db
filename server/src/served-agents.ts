/**
 * The agents a server serves, each by its name, and the build of each served now. Serving a new
 * build is one assignment: a request that started on the previous build goes on with it, and that
 * build's player (its worker threads, the modules they loaded) is closed once the last run on it
 * has ended.
 */
import { HttpError } from "./http/errors.js";
import { servedBuild, type BuildStatus, type BuildToServe, type ServedBuild } from "./served-build.js";
import type { TurnPlayer } from "./workers/turn-player.js";

interface Slot {
  build: ServedBuild;
  status: BuildStatus;
}

export class ServedAgents {
  private readonly slots = new Map<string, Slot>();
  /** Runs in progress by the player they were started on. */
  private readonly runsOn = new Map<TurnPlayer, number>();
  /** Players of earlier builds, still playing runs that started on them. */
  private readonly retiring = new Set<TurnPlayer>();

  /** `first`: each agent's first build, the default agent (the one today's routes serve) first. */
  constructor(first: readonly ServedBuild[], watching: boolean) {
    for (const build of first) {
      const clash = this.slots.get(build.name);
      if (clash) throw new TypeError(`two agents are named '${build.name}': each agent served needs a name of its own`);
      this.slots.set(build.name, { build: servedBuild(build), status: { ok: true, at: Date.now(), watching } });
    }
  }

  /** The agents' names, the default one first. */
  get names(): string[] {
    return [...this.slots.keys()];
  }

  /** The name of the agent served by the routes that name none. */
  get defaultName(): string {
    return this.names[0]!;
  }

  /** The agent's build served now (default: the default agent's); a name not served is a 404. */
  current(name = this.defaultName): ServedBuild {
    return this.slot(name).build;
  }

  status(name = this.defaultName): BuildStatus {
    return this.slot(name).status;
  }

  private slot(name: string): Slot {
    const slot = this.slots.get(name);
    if (!slot)
      throw new HttpError(
        404,
        "unknown_agent",
        `no agent '${name}' is served here (${this.names.map((n) => `'${n}'`).join(", ")} ${this.slots.size === 1 ? "is" : "are"})`,
      );
    return slot;
  }

  /**
   * Serves another build of the agent: every run that starts from now on runs on it; a run in
   * progress finishes on the build it started with. Played in worker threads, a build comes with
   * the player whose workers made it, and the previous one is closed after its last run.
   */
  serve(next: BuildToServe, name = this.defaultName): ServedBuild {
    const slot = this.slot(name);
    const previous = slot.build;
    const { pool } = next;
    // A worker thread plays the agent its script made: a new build played in workers comes with
    // the pool whose workers made it.
    if (previous.player.threads > 0 && !pool)
      throw new Error(
        "serve: the turns are played in worker threads, which keep the agent they made; give the new build's TurnPool with it",
      );
    if (previous.player.threads === 0 && pool)
      throw new Error("serve: the turns are played in the server's own thread; a TurnPool cannot be given");
    slot.build = servedBuild({
      name,
      agent: next.agent,
      player: pool ?? previous.player,
      number: previous.number + 1,
      sources: next.sources ?? [],
    });
    slot.status = { ok: true, at: Date.now(), watching: slot.status.watching };
    if (pool && pool !== previous.player) {
      this.retiring.add(previous.player);
      if (!this.runsOn.get(previous.player)) void this.retire(previous.player);
    }
    return slot.build;
  }

  /** A build of the agent that failed: its status says so until the next good one. */
  failed(message: string, diagnostics: string, name = this.defaultName): void {
    const slot = this.slot(name);
    slot.status = { ok: false, at: Date.now(), watching: slot.status.watching, message, diagnostics };
  }

  /** The build's player, kept open until `letGo` (a run on it). */
  hold(build: ServedBuild): TurnPlayer {
    const { player } = build;
    this.runsOn.set(player, (this.runsOn.get(player) ?? 0) + 1);
    return player;
  }

  /** A run on `player` ended: an earlier build's player is closed after its last. */
  letGo(player: TurnPlayer): void {
    const left = this.runsOn.get(player)! - 1;
    if (left > 0) this.runsOn.set(player, left);
    else {
      this.runsOn.delete(player);
      if (this.retiring.has(player)) void this.retire(player);
    }
  }

  private async retire(player: TurnPlayer): Promise<void> {
    try {
      await player.close();
    } finally {
      this.retiring.delete(player);
    }
  }

  /** The players of the builds served now, each once. */
  private get players(): Set<TurnPlayer> {
    return new Set([...this.slots.values()].map((s) => s.build.player));
  }

  /** Worker threads playing the turns of the builds served now (0: the server's own thread). */
  get workerThreads(): number {
    let threads = 0;
    for (const p of this.players) threads += p.threads;
    return threads;
  }

  /** Worker threads running in this process: the current builds' and those of earlier builds still finishing runs. */
  get liveWorkerThreads(): number {
    let live = 0;
    for (const p of new Set([...this.players, ...this.retiring])) live += p.liveThreads;
    return live;
  }

  /** Why the turns cannot all be played now (a current build's workers short of their number), if so. */
  get unready(): string | undefined {
    for (const p of this.players) {
      const why = p.unready?.();
      if (why !== undefined) return why;
    }
    return undefined;
  }

  /** Resolves once every build served can play its turns; rejects with why one cannot. */
  async ready(): Promise<void> {
    await Promise.all([...this.players].map((p) => p.ready?.()));
  }

  /** Closes every player, current and retiring. */
  async close(): Promise<void> {
    await Promise.all([...new Set([...this.players, ...this.retiring])].map((p) => p.close()));
  }
}
