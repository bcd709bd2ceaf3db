// The edit table (edit-table.ts) through both stores: the thread's turns run with runTurn on the
// agent of the original build, then its next message on the edited build's agent; a refused turn
// leaves the thread as it was.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent, type Graph } from "@autograms/runtime";
import { openStore, runTurn, type Store } from "@autograms/store";
import { TestModel } from "../runtime/helpers.js";
import { startPostgres, type PostgresServer } from "../store/support/postgres-server.mjs";
import { EDITS, NEXT_MESSAGE, SHOP, WAITS, shopGraph } from "./edit-table.js";

const dir = mkdtempSync(join(tmpdir(), "autograms-live-edits-"));
let server: PostgresServer;
const stores: Record<string, Store> = {};
beforeAll(async () => {
  server = await startPostgres();
  stores.SQLite = await openStore(`sqlite:${join(dir, "threads.db")}`);
  stores.Postgres = await openStore(await server.newDatabase());
}, 120_000);
afterAll(async () => {
  for (const store of Object.values(stores)) await store.close();
  server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const agentOf = (graph: Graph) => new Agent(graph, { model: new TestModel() });
const original = agentOf(shopGraph(SHOP));
let threads = 0;

for (const kind of ["SQLite", "Postgres"]) {
  describe(`a thread in the ${kind} store waiting at X, after an edit of the agent`, () => {
    for (const row of EDITS) {
      it(`${row.edit} (waiting at ${row.at})`, async () => {
        const store = stores[kind]!;
        const id = `t${++threads}`;
        for (const text of WAITS[row.at]) await runTurn(store, original, id, text);
        const version = (await store.thread(id))!.version;
        const turn = runTurn(store, agentOf(shopGraph(row.change(SHOP))), id, NEXT_MESSAGE);
        if ("reply" in row.outcome) {
          expect((await turn).reply).toBe(row.outcome.reply);
          expect((await store.thread(id))!.version).toBe(version + 1);
        } else {
          await expect(turn).rejects.toMatchObject({
            code: "stale_memory",
            message: expect.stringMatching(row.outcome.stale),
          });
          expect((await store.thread(id))!.version).toBe(version);
          // Still resumable with the build it was made with.
          await expect(runTurn(store, original, id, NEXT_MESSAGE)).resolves.toMatchObject({
            turn: { seq: version + 1 },
          });
        }
      });
    }
  });
}
