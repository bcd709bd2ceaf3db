// What `POST /api/chat` costs the store for a message to a thread that has had its opening: the
// thread taken in one transaction that does not wait for the disk (the message id, the waiters and
// the lease), the turn committed with its run's events in one that does; nothing read on its own
// (no check of the thread, nor of the message id, before it is taken), the memory not read back.
import { afterAll, expect, it } from "vitest";
import { openStore } from "@autograms/store";
import { recordStatements } from "../store/support/statements.js";
import {
  chatBody,
  json,
  settled,
  startTestServer,
  tempFolder,
  userMessage,
  type TestServer,
} from "./support/harness.js";

const folder = tempFolder("autograms-message-statements-");
let t: TestServer | undefined;
afterAll(async () => {
  await t?.close();
  folder.remove();
});

it("answers a message with two transactions: one takes the thread, one commits the turn with its events", async () => {
  const store = await openStore(`sqlite:${folder.path}/chat.db`);
  // A run's events wait for its commit up to flushMs (the harness's 20 ms, which a turn on a busy
  // machine outlasts, and its events are then written in a batch before it): what is counted here
  // is a run that ends before its first batch is due.
  t = await startTestServer(folder.path, { store, policy: "enqueue", flushMs: 60_000 });
  const send = async (id: string, text: string) => {
    const res = await fetch(`${t!.url}/api/chat`, json(chatBody("c", [userMessage(id, text)])));
    expect(res.status).toBe(200);
    return res.text();
  };
  await send("m-1", "one");
  await settled(t, "c", 2);
  const recorded = recordStatements(store);
  const answer = await send("m-2", "two");
  // Its run's end is sent once the commit that stored it has returned.
  expect(answer).toContain("echo: two");
  const { statements, transactions } = recorded;
  expect(transactions).toEqual([{ durable: false }, { durable: true }]);
  expect(statements.filter((s) => s.tx === null)).toEqual([]);
  expect(statements.filter((s) => s.tx !== null && /FROM threads WHERE id/.test(s.sql))).toHaveLength(2);
  expect(statements.some((s) => /FROM snapshots|SELECT delta/.test(s.sql))).toBe(false);
  // The run, its events and its end, all stored by the commit.
  expect(statements.filter((s) => s.tx === 1).some((s) => /INSERT INTO run_events/.test(s.sql))).toBe(true);
  const run = await store.latestRun("c");
  expect(run).toMatchObject({ status: "finished", turn: 3, messageId: "m-2" });
  expect((await store.runEvents(run!.id)).at(-1)?.event).toMatchObject({ type: "run-finish", turn: 3 });
  // Sent again: its turn back, from the same one transaction, nothing taken or written.
  recorded.clear();
  expect(await send("m-2", "two")).toContain("echo: two");
  expect(transactions).toEqual([{ durable: false }]);
  expect(statements.filter((s) => s.tx === 0).some((s) => /^UPDATE|^INSERT/.test(s.sql))).toBe(false);
  await store.close();
});

it("answers a new thread's first message with the opening on the same lease: three transactions, the thread taken once", async () => {
  const store = await openStore(`sqlite:${folder.path}/first.db`);
  const server = await startTestServer(folder.path, { store, policy: "enqueue", flushMs: 60_000 });
  try {
    const recorded = recordStatements(store);
    const res = await fetch(`${server.url}/api/chat`, json(chatBody("new", [userMessage("m-1", "hello")])));
    expect(res.status).toBe(200);
    const answer = await res.text();
    expect(answer).toContain("echo: hello");
    // Its run's end is sent once the commit that stored it has returned: all of it is recorded.
    const statements = [...recorded.statements];
    const transactions = [...recorded.transactions];
    await settled(server, "new", 2);
    // Taken for the message; the opening committed on that lease, which it keeps; the message's turn.
    expect(transactions).toEqual([{ durable: false }, { durable: true }, { durable: true }]);
    expect(statements.filter((s) => s.tx === null)).toEqual([]);
    expect(statements.some((s) => /SET lease_token = NULL/.test(s.sql) && /AND lease_token = \?/.test(s.sql))).toBe(
      false,
    );
    const turns = await store.turns("new");
    expect(turns.map((t) => [t.seq, t.messageId, t.user])).toEqual([
      [1, null, null],
      [2, "m-1", "hello"],
    ]);
    // One run for both turns, as before.
    const run = await store.latestRun("new");
    expect(run).toMatchObject({ status: "finished", turn: 2, messageId: "m-1" });
  } finally {
    await server.close();
    await store.close();
  }
});
