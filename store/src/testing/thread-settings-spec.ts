/**
 * The store suite's thread settings: the model settings chosen for a thread's next runs, kept as
 * the text they were given in every process of the store, made with the thread or before it,
 * given with the memory as the thread is taken for a message, left behind by a fork, taken away by
 * a deletion, and bad arguments refused (ThreadStore's `threadSettings`, `setThreadSettings`;
 * `takeThread`'s `settings`).
 */
import { type Backend, talk, withStore } from "./suite-support.js";
import type { TestApi } from "./test-api.js";

/** Registers the thread settings part of the store suite for the store `backend` opens; it runs alone as well. */
export function threadSettingsSpec(name: string, backend: Backend, api: TestApi): void {
  api.describe(`${name} store: thread settings`, () => threadSettingsTests(backend, api));
}

/** The thread settings tests, registered in the describe block the caller is in (storeSuite puts the concerns in one). */
export function threadSettingsTests(backend: Backend, { it, expect }: TestApi): void {
  it("keeps a thread's settings as the text given, for every store on the database, across its turns", () =>
    withStore(backend, async (store, db) => {
      await talk(store, "s", 1);
      expect(await store.threadSettings("s")).toBeNull();
      const text = '{"model":"gpt-4o","temperature":0.7,"maxTokens":300}';
      await store.setThreadSettings("s", text);
      expect(await store.threadSettings("s")).toBe(text);
      // Another store on the same database (another process, a restarted one) reads them.
      const other = await db.open();
      try {
        expect(await other.threadSettings("s")).toBe(text);
        // Text the store does not read is kept as it is: the server checks what it reads back.
        await other.setThreadSettings("s", "{not json");
        expect(await store.threadSettings("s")).toBe("{not json");
      } finally {
        await other.close();
      }
      // A turn's commit leaves them as they were; the thread's history is unchanged by them.
      await store.setThreadSettings("s", text);
      await talk(store, "s", 1);
      expect(await store.threadSettings("s")).toBe(text);
      expect((await store.thread("s"))!.version).toBe(4);
      await store.setThreadSettings("s", null);
      expect(await store.threadSettings("s")).toBeNull();
    }));

  it("gives a thread's settings with its memory as the thread is taken for a message, at once or after a wait", () =>
    withStore(backend, async (store) => {
      const text = '{"temperature":0.3}';
      // A thread made by its settings, taken for its first message.
      await store.setThreadSettings("t", text);
      const first = await store.takeThread("t", { messageId: "m1" });
      expect(first.settings).toBe(text);
      await store.release(first.lease!);
      // A thread with turns, taken free; then taken after waiting in its queue.
      await talk(store, "t", 1);
      const held = await store.takeThread("t", { messageId: "m2" });
      expect(held.settings).toBe(text);
      const waiting = store.takeThread("t", { messageId: "m3", policy: "enqueue" });
      await store.setThreadSettings("t", '{"temperature":0.9}');
      await store.release(held.lease!);
      const queued = await waiting;
      expect(queued.settings).toBe('{"temperature":0.9}');
      await store.release(queued.lease!);
      // A new thread has none.
      const fresh = await store.takeThread("fresh", { messageId: "m1" });
      expect(fresh.settings).toBeNull();
      await store.release(fresh.lease!);
    }));

  it("makes a thread given settings before its first message, and none for null", () =>
    withStore(backend, async (store) => {
      expect(await store.threadSettings("new")).toBeNull();
      await store.setThreadSettings("none", null);
      expect(await store.thread("none")).toBeNull();
      await store.setThreadSettings("new", '{"temperature":1}');
      expect(await store.thread("new")).toMatchObject({ id: "new", version: 0, agent: null, running: null });
      expect(await store.threadSettings("new")).toBe('{"temperature":1}');
      // Its first turn is played on the thread as made.
      await talk(store, "new", 1);
      expect((await store.thread("new"))!.version).toBe(2);
      expect(await store.threadSettings("new")).toBe('{"temperature":1}');
    }));

  it("leaves them out of a fork and takes them away with the thread", () =>
    withStore(backend, async (store) => {
      await talk(store, "src", 2);
      await store.setThreadSettings("src", '{"temperature":0.2}');
      await store.fork("src", 2, "forked");
      expect(await store.threadSettings("forked")).toBeNull();
      expect(await store.deleteThread("src")).toBe(true);
      expect(await store.threadSettings("src")).toBeNull();
      // A thread made again under the same id starts without them.
      await talk(store, "src", 1);
      expect(await store.threadSettings("src")).toBeNull();
    }));

  it("refuses settings that are not text, and text a store cannot keep, naming the argument", () =>
    withStore(backend, async (store) => {
      await expect(store.setThreadSettings("s", { temperature: 1 } as never)).rejects.toMatchObject({
        code: "bad_request",
        message: "settings: must be a string (JSON text) or null, not object",
      });
      await expect(store.setThreadSettings("s", '{"model":"a\u0000b"}')).rejects.toMatchObject({
        code: "bad_request",
        message: expect.stringMatching(/^settings: contains a NUL character/),
      });
      await expect(store.setThreadSettings("", "{}")).rejects.toMatchObject({ code: "bad_request" });
      await expect(store.threadSettings(7 as never)).rejects.toMatchObject({
        code: "bad_request",
        message: "threadId: must be a string, not 7",
      });
      expect(await store.thread("s")).toBeNull();
    }));
}
