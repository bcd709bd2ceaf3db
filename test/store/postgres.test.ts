// The shared store suite against a real PostgreSQL server (started for this file, stopped after):
// a new database per test.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { openStore } from "@autograms/store";
import { storeSuite } from "@autograms/store/testing";
import { startPostgres, type PostgresServer } from "./support/postgres-server.mjs";

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(() => server?.stop());

storeSuite(
  "Postgres",
  {
    async fresh() {
      const url = await server.newDatabase();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return {
        url,
        open: (options) => openStore(url, options),
        query: async (sql) => (await client.query(sql)).rows,
        close: () => client.end(),
      };
    },
  },
  { describe, it, expect },
);
