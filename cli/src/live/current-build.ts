/**
 * The build a command plays its turns on, which --watch replaces: a turn under way goes on with
 * the build it started on, and a replaced build is closed once no turn plays on it (its worker
 * threads end then, and the modules they loaded with them).
 */
export class CurrentBuild<T extends { close(): Promise<void> }> {
  /** Turns under way, by the build they play on. */
  private readonly playing = new Map<T, number>();
  /** Replaced builds that turns still play on. */
  private readonly replaced = new Set<T>();

  constructor(private current: T) {}

  get(): T {
    return this.current;
  }

  /** Runs a turn on the current build, which stays open until it ends. */
  async during<R>(turn: (build: T) => Promise<R>): Promise<R> {
    const build = this.current;
    this.playing.set(build, (this.playing.get(build) ?? 0) + 1);
    try {
      return await turn(build);
    } finally {
      const left = this.playing.get(build)! - 1;
      if (left > 0) this.playing.set(build, left);
      else {
        this.playing.delete(build);
        if (this.replaced.delete(build)) void build.close().catch(() => undefined);
      }
    }
  }

  /** Turns that start from now on play on `next`; the build replaced is closed after its turns. */
  async use(next: T): Promise<void> {
    const previous = this.current;
    this.current = next;
    if (this.playing.has(previous)) this.replaced.add(previous);
    else await previous.close();
  }

  async close(): Promise<void> {
    await Promise.all([this.current, ...this.replaced].map((b) => b.close()));
  }
}
