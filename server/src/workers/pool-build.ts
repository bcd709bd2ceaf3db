/**
 * One build of the agent among those a pool's workers play (hot reload): a save that leaves the
 * tool and action modules as they were needs no new workers, only the agent made again from the
 * new graph in the workers there are (`TurnPool.make`), importing nothing anew. Each build is a
 * player of its own, so that a run finishes on the build it started on and an earlier build is let
 * go once its runs have ended (`ServedAgents.serve`); the pool ends with the last of its builds.
 */
import type { PlayedResult } from "./protocol.js";
import type { TurnPool } from "./turn-pool.js";
import type { PlayRequest, ToolCallRequest, TurnPlayer } from "./turn-player.js";

export class PoolBuild implements TurnPlayer {
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly pool: TurnPool,
    private readonly build: number,
    /** The builds on the pool not yet closed, oldest first (shared by them). */
    private readonly open: PoolBuild[],
  ) {
    open.push(this);
  }

  /** The agent the pool's workers made as they started. */
  static first(pool: TurnPool): PoolBuild {
    return new PoolBuild(pool, 0, []);
  }

  /**
   * Another build on this one's workers, its agent made from `data`, with what the first worker's
   * factory told of it. Rejects when a worker could not make it.
   */
  async next(data: unknown): Promise<{ build: PoolBuild; about: unknown }> {
    if (this.closed) throw new Error("a closed build makes no other");
    const { build, about } = await this.pool.make(data);
    return { build: new PoolBuild(this.pool, build, this.open), about };
  }

  /** Closed (or closing): its agent is dropped, and no build may be made from it. */
  get closed(): boolean {
    return this.closing !== undefined;
  }

  get threads(): number {
    return this.pool.threads;
  }

  /** The pool's threads, counted by its newest build not yet closed (the others count none: they share them). */
  get liveThreads(): number {
    return this.open.at(-1) === this ? this.pool.liveThreads : 0;
  }

  ready(): Promise<unknown> {
    return this.pool.ready();
  }

  unready(): string | undefined {
    return this.pool.unready();
  }

  play(request: PlayRequest): Promise<PlayedResult> {
    return this.pool.play({ ...request, build: this.build });
  }

  callTool(request: ToolCallRequest): Promise<unknown> {
    return this.pool.callTool({ ...request, build: this.build });
  }

  /** Drops the build's agent in the workers; the last build on the pool closes it. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.open.every((b) => b === this || b.closing !== undefined)) await this.pool.close();
      else this.pool.drop(this.build);
      this.open.splice(this.open.indexOf(this), 1);
    })();
    return this.closing;
  }
}
