// Two messages for one brand-new thread, sent to two server processes at once (two apps on one
// store here; --busy enqueue): the thread gets the agent's opening once, then both messages, one
// turn each. The second process's run must not take the opening the first one already made for
// its own (a run of the agent on no message).
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "@autograms/store";
import { json, sseFrames, startTestServer, tempFolder } from "../server/support/harness.js";
import { queued } from "./support/waiters.js";

const folder = tempFolder("autograms-scale-double-");
afterAll(() => folder.remove());

const lastEvent = async (res: Response) => JSON.parse((await sseFrames(res)).at(-1)!.data).event;

describe("double texting on a new thread across processes", () => {
  it("makes the opening once, then each message once, in the order they queued", async () => {
    const url = `sqlite:${folder.path}/double.db`;
    const store = await openStore(url);
    const [a, b] = await Promise.all([0, 1].map(() => startTestServer(folder.path, { store, policy: "enqueue" })));
    try {
      // The new thread is taken (as by a third process) while both messages arrive: both queue.
      const other = await store.acquire("fresh");
      const x = fetch(`${a!.url}/api/threads/fresh/runs`, json({ message: "x", messageId: "x" }));
      await queued(url, "fresh", 1);
      const y = fetch(`${b!.url}/api/threads/fresh/runs`, json({ message: "y", messageId: "y" }));
      await queued(url, "fresh", 2);
      // Both runs take the thread for the opening, one after the other: the second must see it made.
      await store.release(other);
      const ends = await Promise.all([x, y].map(async (r) => lastEvent(await r)));
      expect(ends.map((e) => e.type)).toEqual(["run-finish", "run-finish"]);
      expect((await store.turns("fresh")).map((t) => [t.user, t.messageId])).toEqual([
        [null, null],
        ["x", "x"],
        ["y", "y"],
      ]);
    } finally {
      await Promise.all([a!.close(), b!.close()]);
      await store.close();
    }
  });
});
