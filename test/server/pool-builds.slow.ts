// Builds of an agent made again on the workers a pool has (TurnPool.make, PoolBuild): what hot
// reload does with a save that leaves the modules as they were. A turn plays on the build it names,
// however many were made since; a build's agent goes when it is closed, the pool with the last;
// a worker that replaces a dead one makes the builds still open; a turn's AgentError comes back as one.
import { afterAll, describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { compile } from "@autograms/compiler";
import { AgentError, type Graph } from "@autograms/runtime";
import { PoolBuild, TurnPool } from "@autograms/server";
import { playRequest } from "./support/play-request.js";

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/pool/${name}`, import.meta.url));
const graphOf = (greeting: string): Graph =>
  compile(
    `import { Autogram, chatExact } from "@autograms/runtime";
import { boom, whoami } from "./whoami.js";

export default class Builds extends Autogram {
  main() {
    chatExact("Hello.", { name: "hello" });
    while (true) {
      if (this._last_user_reply === "boom") {
        boom();
      }
      if (this._last_user_reply === "wait") {
        chatExact(\`${greeting} from \${whoami(400)}\`, { name: "waited" });
      } else {
        chatExact(\`${greeting} from \${whoami()}\`, { name: "who" });
      }
    }
  }
}
`,
    { fileName: fixture("builds.ts") },
  ).graph as Graph;

const pools: TurnPool[] = [];
afterAll(() => Promise.all(pools.map((p) => p.close())));

function pool(size: number, greeting = "One"): TurnPool {
  const p = new TurnPool({ script: fixture("builds-worker.mjs"), data: { graph: graphOf(greeting) }, size });
  pools.push(p);
  return p;
}

const request = playRequest;

describe("a build made on a pool's workers", () => {
  it("is played by the same threads, while a turn of the build before finishes on it", async () => {
    const p = pool(2);
    const first = PoolBuild.first(p);
    const started = (await first.ready()) as { made: number; thread: number };
    expect(started.made).toBe(1);
    const opening = await first.play(request("a", null));
    expect(opening.reply).toBe("Hello.");
    const before = (await first.play(request("a", "who?", opening.memory))).reply!;
    // A turn of the first build waits for its tool while the second is made.
    const waiting = first.play(request("a", "wait", opening.memory));
    const { build: second, about } = await first.next({ graph: graphOf("Two") });
    // Each worker made one more agent: no thread was started, no module imported anew.
    expect(about).toMatchObject({ made: 2 });
    expect(p.threads).toBe(2);
    expect((await waiting).reply).toMatch(/^One from \d+$/);
    const after = (await second.play(request("a", "who?", opening.memory))).reply!;
    expect(after).toMatch(/^Two from \d+$/);
    expect(after.slice(4)).toBe(before.slice(4));
    // The first build still plays as it was until it is closed.
    expect((await first.play(request("b", "who?", opening.memory))).reply).toMatch(/^One from/);
    // The threads are counted once, by the newest build.
    expect([first.liveThreads, second.liveThreads]).toEqual([0, 2]);
    await first.close();
    expect(second.liveThreads).toBe(2);
    await expect(first.play(request("c", null))).rejects.toThrow(/no build 0 here/);
    expect((await second.play(request("c", "who?", opening.memory))).reply).toMatch(/^Two from/);
    // The last build closed ends the pool and its workers.
    await second.close();
    expect(p.liveThreads).toBe(0);
    expect([first.closed, second.closed]).toEqual([true, true]);
    await expect(second.next({ graph: graphOf("Three") })).rejects.toThrow(/a closed build makes no other/);
  });

  it("is made by a worker that replaces a dead one, and a turn's AgentError comes back with its place", async () => {
    const p = pool(1);
    const first = PoolBuild.first(p);
    await first.ready();
    const { build: second } = await first.next({ graph: graphOf("Two") });
    await (p as unknown as { slots: { worker: { terminate(): Promise<number> } }[] }).slots[0]!.worker.terminate();
    await expect.poll(() => p.liveThreads).toBe(1);
    const opening = await second.play(request("a", null));
    expect((await second.play(request("a", "who?", opening.memory))).reply).toMatch(/^Two from/);
    expect((await first.play(request("b", "who?", opening.memory))).reply).toMatch(/^One from/);
    const failed = await second.play(request("a", "boom", opening.memory)).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(AgentError);
    expect(failed).toMatchObject({
      code: "sandbox",
      node: expect.any(String),
      file: expect.stringMatching(/builds\.ts$/),
      line: 9,
      column: 9,
      message: expect.stringMatching(/builds\.ts:9:9: node '.*': .*the tool broke/),
    });
  });

  it("is refused with the factory's message when a worker cannot make it; the builds it has go on", async () => {
    const p = pool(2);
    const first = PoolBuild.first(p);
    await first.ready();
    await expect(first.next({ refuse: "the graph is half-written" })).rejects.toThrow("the graph is half-written");
    expect((await first.play(request("a", null))).reply).toBe("Hello.");
    expect(first.closed).toBe(false);
  });
});
