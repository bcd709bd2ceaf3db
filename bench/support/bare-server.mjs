// The bare baseline of bench/serve.mjs: the least a server answering POST /api/chat can do. A
// minimal Hono + @hono/node-server app that reads the request's JSON, commits one ~1 KB row (SQLite
// in WAL mode with synchronous=FULL, as a turn's commit waits for the disk; or one INSERT with
// `pg`) and streams the same SSE frames a real turn of the agent streams (read from a file),
// with Hono's own streamSSE. No agent, no lease, no run events: what is left of a served message
// once the framework is taken away.
//
//   node bench/support/bare-server.mjs sqlite:FILE|postgres://... FRAMES.json
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { readFileSync } from "node:fs";

const [where, framesFile] = process.argv.slice(2);
/** @type {{ id: string; data: string }[]} */
const frames = JSON.parse(readFileSync(framesFile, "utf8"));
const PADDING = "x".repeat(1000);

/** @returns {Promise<(thread: string, body: string) => Promise<void>>} */
async function openCommit() {
  if (where.startsWith("sqlite:")) {
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(where.slice("sqlite:".length));
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = FULL");
    db.exec("CREATE TABLE IF NOT EXISTS turns (id INTEGER PRIMARY KEY, thread TEXT NOT NULL, body TEXT NOT NULL)");
    const insert = db.prepare("INSERT INTO turns (thread, body) VALUES (?, ?)");
    return async (thread, body) => void insert.run(thread, body);
  }
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({ connectionString: where, max: 4 });
  await pool.query(
    "CREATE TABLE IF NOT EXISTS turns (id SERIAL PRIMARY KEY, thread TEXT NOT NULL, body TEXT NOT NULL)",
  );
  return async (thread, body) =>
    void (await pool.query("INSERT INTO turns (thread, body) VALUES ($1, $2)", [thread, body]));
}

const commit = await openCommit();
const app = new Hono();
app.post("/api/chat", async (c) => {
  const body = await c.req.json();
  const text = body.messages.at(-1).parts[0].text;
  await commit(String(body.id), JSON.stringify({ user: text, reply: PADDING }).slice(0, 1024));
  return streamSSE(c, async (stream) => {
    for (const f of frames) await stream.writeSSE(f);
  });
});
const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info) =>
  console.log(`listening on http://127.0.0.1:${info.port}`),
);
process.on("SIGTERM", () => server.close(() => process.exit(0)));
