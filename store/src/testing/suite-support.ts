/**
 * What the store suite's spec files share: the backend a suite is given (a fresh database per
 * test), and the few steps its tests take again and again.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Agent } from "@autograms/runtime";
import { acquireTurn } from "../turns/held-turn.js";
import { runTurn } from "../turns/run-turn.js";
import type { Lease, Store, StoreOptions } from "../types.js";
import { EchoModel, echoAgent } from "./echo-agent.js";

export interface Backend {
  /** A new empty database: its URL, a way to open stores on it, and raw SQL for checks. */
  fresh(): Promise<Database>;
}

export interface Database {
  url: string;
  open(options?: StoreOptions): Promise<Store>;
  /** Rows of a query, run outside the store (Postgres `$1` placeholders, SQLite `?`: use none). */
  query(sql: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/** A store on a fresh database, closed with it after `body`. */
export async function withStore(
  backend: Backend,
  body: (store: Store, db: Database) => Promise<void>,
  options?: StoreOptions,
): Promise<void> {
  const db = await backend.fresh();
  const store = await db.open(options);
  try {
    await body(store, db);
  } finally {
    await store.close();
    await db.close();
  }
}

// The package's built entry, for another process to open a store with: from src/testing/ (the
// repository's tests) and from dist/testing/ (an installed package) alike.
export const built = fileURLToPath(new URL("../../dist/index.js", import.meta.url));

/** A Node process that opens (and so migrates) the store and closes it; its exit code. */
export function openInAnotherProcess(url: string): Promise<number | null> {
  const script = `const { openStore } = await import(${JSON.stringify(built)}); await (await openStore(process.argv[1])).close();`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script, url], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  return new Promise((resolve) => child.on("close", resolve));
}

/** How many run events the rows hold (a row is a batch of events, or one event written before batches). */
export const EVENTS_STORED = "SELECT COALESCE(SUM(COALESCE(last_seq, seq) - seq + 1), 0) AS n FROM run_events";

export const count = async (db: Database, table: string, thread: string) =>
  Number((await db.query(`SELECT COUNT(*) AS n FROM ${table} WHERE thread_id = '${thread}'`))[0]!.n);

/** A turn taken and played in two halves, as a server does: `onHeld` runs once the thread is taken (a server records its run there). */
export async function heldTurn(
  store: Store,
  agent: Agent,
  threadId: string,
  text: string | null,
  onHeld: (lease: Lease) => Promise<void>,
  messageId?: string,
) {
  const { held } = await acquireTurn(store, threadId, text, { messageId: messageId ?? null });
  if (!held) throw new Error(`the message ${messageId} had made its turn`);
  try {
    await onHeld(held.lease);
    const result = await agent.reply(text ?? "", held.memory ?? undefined);
    return await held.commit({ ...result, trace: [], startedAt: Date.now() });
  } finally {
    await held.release();
  }
}

/** A conversation of `n` messages after the opening, on thread `id`. */
export async function talk(store: Store, id: string, n: number, model = new EchoModel()) {
  const agent = echoAgent(model);
  const replies: (string | null)[] = [(await runTurn(store, agent, id, null)).reply];
  for (let i = 1; i <= n; i++) replies.push((await runTurn(store, agent, id, `message ${i}`)).reply);
  return replies;
}
