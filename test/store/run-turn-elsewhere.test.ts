// runTurn with `play`: the turn played somewhere else than the caller's agent (a worker thread, in
// `chat --watch`), from the memory the store holds. The caller's agent checks the memory before
// and plays nothing; what `play` gives is committed, its trace packed; a stale memory is refused
// before anything is played; a stopped turn commits nothing and frees the thread.
import { afterAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { storedTrace, type ChatModel, type Memory, type TraceEvent } from "@autograms/runtime";
import { openStore, packTurn, runTurn, type PlayedElsewhere } from "@autograms/store";
import { echoAgent, echoGraph, gate } from "@autograms/store/testing";

const dir = mkdtempSync(join(tmpdir(), "autograms-run-elsewhere-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The caller's agent: the same graph, but a model that must not be asked (nothing plays here). */
const NOT_HERE: ChatModel = {
  complete: () => Promise.reject(new Error("played in the caller's thread")),
  choose: () => Promise.reject(new Error("played in the caller's thread")),
};

describe("runTurn with play", () => {
  it("commits what the player played, and the caller's agent plays nothing", async () => {
    const store = await openStore(`sqlite:${join(dir, "played.db")}`);
    try {
      const player = echoAgent();
      const seen: (Memory | null)[] = [];
      const play =
        (text: string | null) =>
        async (memory: Memory | null): Promise<PlayedElsewhere> => {
          seen.push(memory);
          const events: TraceEvent[] = [];
          const r = await player.reply(text ?? "", memory ?? undefined, { trace: (e) => events.push(e) });
          return { reply: r.reply, memory: r.memory, done: r.done, packed: packTurn(storedTrace(events), r.delta) };
        };
      const here = echoAgent(NOT_HERE);
      const opening = await runTurn(store, here, "t", null, { play: play(null) });
      const second = await runTurn(store, here, "t", "hi", { play: play("hi") });
      expect([opening.reply, second.reply]).toEqual(["Hello! Say something.", "echo: hi"]);
      expect(seen).toEqual([null, opening.memory]);
      const turns = await store.turns("t");
      expect(turns.map((t) => [t.user, t.reply])).toEqual([
        [null, "Hello! Say something."],
        ["hi", "echo: hi"],
      ]);
      expect(turns[1]!.trace.map((e) => e.kind)).toContain("generate");
      expect((await store.load("t")).memory).toEqual(second.memory);
    } finally {
      await store.close();
    }
  });

  it("refuses a stale memory before playing, and a stopped turn commits nothing and frees the thread", async () => {
    const store = await openStore(`sqlite:${join(dir, "stale.db")}`);
    try {
      const agent = echoAgent();
      await runTurn(store, agent, "t", null);
      await runTurn(store, agent, "t", "hi");
      let played = 0;
      const edited = echoAgent(NOT_HERE, echoGraph({ instruction: "Answer in French." }));
      await expect(
        runTurn(store, edited, "t", "hi", { play: async () => (played++, Promise.reject(new Error("no"))) }),
      ).rejects.toMatchObject({ code: "stale_memory" });
      expect(played).toBe(0);

      const stop = new AbortController();
      const held = gate();
      const turn = runTurn(store, agent, "t", "hi", {
        signal: stop.signal,
        play: async () => {
          played++;
          await held.promise;
          throw new Error("not reached");
        },
      });
      await expect.poll(() => played).toBe(1);
      stop.abort(new Error("stopped by the test"));
      await expect(turn).rejects.toThrow("stopped by the test");
      held.open();
      expect((await store.thread("t"))?.running ?? null).toBeNull();
      expect(await store.turns("t")).toHaveLength(2);
      expect((await runTurn(store, agent, "t", "again")).reply).toBe("echo: again");
    } finally {
      await store.close();
    }
  });
});
