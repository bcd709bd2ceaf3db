// A run's events and its turn's commit: the events not yet stored go with the commit (at most a
// batch's worth; those before it are written first, in order), what the run says after the turn
// is shown only once the commit succeeded, and a commit that fails leaves its events to be written
// with the run's end.
import { describe, expect, it } from "vitest";
import type { NumberedRunEvent } from "@autograms/server";
import type { RunWrite, Store } from "@autograms/store";
import { LiveRun } from "../../server/src/runs/live-run.js";
import { isOver } from "../../server/src/runs/run-events.js";

const lease = { threadId: "t", token: "x", owner: "test", version: 0, messageId: "m", ttlMs: 10_000 };
const say = (i: number) => ({ type: "text-delta" as const, node: "n", delta: `${i} ` });

/** A store that records the batches appended on their own. */
function recording() {
  const batches: { seqs: number[]; end?: string }[] = [];
  const store = {
    appendRunEvents: async (_id: string, events: NumberedRunEvent[], end?: string) => {
      batches.push({ seqs: events.map((e) => e.seq), ...(end && { end }) });
      return true;
    },
  } as unknown as Store;
  return { store, batches };
}

describe("a run's turn committed with its events", () => {
  it("writes what came before a batch's worth first, then the rest with the commit, and shows its end once committed", async () => {
    const { store, batches } = recording();
    const run = new LiveRun("r", "t", lease, store, 60_000);
    for (let i = 1; i <= 1200; i++) run.push(say(i));
    let written: RunWrite | undefined;
    let shownDuring = 0;
    const turn = await run.commitTurn(
      [say(1201), { type: "run-finish", turn: 1, reply: "done", done: false }],
      "finished",
      async (write) => {
        written = write;
        shownDuring = run.events.length;
        return "committed";
      },
    );
    expect(turn).toBe("committed");
    // The first 700 in batches of at most 500, in order.
    expect(batches.map((b) => [b.seqs[0], b.seqs.at(-1)])).toEqual([
      [1, 500],
      [501, 700],
    ]);
    // The commit: the last 500 and what follows the turn, numbered on, ending the run.
    expect(written!.events.map((e) => e.seq)).toEqual(Array.from({ length: 502 }, (_, i) => 701 + i));
    expect(written).toMatchObject({ runId: "r", end: "finished" });
    // Shown to this process's clients only once committed.
    expect(shownDuring).toBe(1200);
    expect(run.events.at(-1)!.event).toMatchObject({ type: "run-finish", turn: 1 });
    expect(isOver(run)).toBe(true);
    await run.stored;
  });

  it("a commit that fails shows nothing after the turn, and its events are written with the run's end", async () => {
    const { store, batches } = recording();
    const run = new LiveRun("r", "t", lease, store, 60_000);
    for (let i = 1; i <= 3; i++) run.push(say(i));
    await expect(
      run.commitTurn([{ type: "run-finish", turn: 1, reply: "done", done: false }], "finished", async () => {
        throw new Error("lease lost");
      }),
    ).rejects.toThrow("lease lost");
    expect(run.events).toHaveLength(3);
    expect(isOver(run)).toBe(false);
    run.push({ type: "run-error", code: "lease_lost", message: "taken over" });
    await run.stored;
    // One batch: its three events and its end.
    expect(batches).toEqual([{ seqs: [1, 2, 3, 4], end: "failed" }]);
  });
});
