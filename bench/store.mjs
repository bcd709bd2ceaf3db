// Stored conversations: the same 1,000-turn conversation kept by the store on SQLite and on
// Postgres, and by LangGraph.js's SQLite checkpointer (@langchain/langgraph-checkpoint-sqlite),
// in one run. For each: the commit's latency per turn (p50 / p99 over turns 1-10, 11-100,
// 101-1,000), the bytes the store wrote for the turn at turns 10, 100 and 1,000 (and the running
// average, snapshots included), and the time to load the thread at turn 1,000.
//
//   npm run build && node bench/store.mjs [turns, default 1000]
//
// Postgres is a temporary server started here (Debian's postgresql package: initdb, pg_ctl), or
// the database BENCH_POSTGRES_URL names. Bytes are what the rows hold (text and blob lengths), the
// same measure for every store; the SQLite file sizes are printed too.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { Agent } from "../runtime/dist/index.js";
import { openStore } from "../store/dist/index.js";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { startPostgres } from "../test/store/support/postgres-server.mjs";

const TURNS = Number(process.argv[2] ?? 1000);
const CHECKPOINTS = [10, 100, 1000].filter((n) => n <= TURNS);
const LOADS = 20;
const user = (i) => `Here is user message ${i}: could you explain the next step once more, please?`;
const answer = (i) =>
  `Of course. Step ${i} works like this: take the numerator, then the denominator, and compare the two carefully.`;
const turnText = (i) => Buffer.byteLength(user(i)) + Buffer.byteLength(answer(i));

const graph = {
  format: "autograms-graph",
  version: 1,
  agent: "Bench",
  globals: {},
  functions: {},
  nodes: [
    { name: "greet", action: "chat_exact", instruction: "Hello! Ask me anything.", transitions: ["talk"] },
    { name: "talk", action: "chat", instruction: "Answer the user.", transitions: ["talk"] },
  ],
};
let nextAnswer = 0;
const model = { complete: async () => answer(nextAnswer), choose: async () => 0 };

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const median = (xs) => percentile(xs, 50);

/** Runs `turns` turns through `turn(i)`, which returns its commit time; `bytes()` is the total stored. */
async function run(name, turn, bytes, load, fileSize) {
  const commits = [];
  const perTurn = {};
  let before = await bytes();
  for (let i = 1; i <= TURNS; i++) {
    commits.push(await turn(i));
    if (CHECKPOINTS.includes(i) || CHECKPOINTS.includes(i + 1)) {
      const now = await bytes();
      if (CHECKPOINTS.includes(i)) perTurn[i] = { turn: now - before, average: now / i };
      before = now;
    }
  }
  const loads = [];
  for (let k = 0; k < LOADS; k++) {
    const start = performance.now();
    await load();
    loads.push(performance.now() - start);
  }
  return { name, commits, perTurn, load: median(loads), file: fileSize?.() };
}

// ---- the store -----------------------------------------------------------------------------

async function storeRun(name, url, rowBytes, fileSize) {
  const store = await openStore(url);
  const agent = new Agent(graph, { model });
  const id = "bench";
  let memory = null;
  const turn = async (i) => {
    nextAnswer = i;
    const lease = await store.acquire(id);
    const trace = [];
    const r = await agent.reply(i === 1 ? "" : user(i), memory ?? undefined, { trace: (e) => trace.push(e) });
    const start = performance.now();
    await store.commit(lease, {
      messageId: `m${i}`,
      user: i === 1 ? null : user(i),
      reply: r.reply,
      memory: r.memory,
      delta: r.delta,
      trace,
      startedAt: Date.now(),
    });
    const ms = performance.now() - start;
    memory = r.memory;
    return ms;
  };
  try {
    return await run(
      name,
      turn,
      () => rowBytes(),
      () => store.load(id),
      fileSize,
    );
  } finally {
    await store.close();
  }
}

const STORE_BYTES = `
  SELECT (SELECT COALESCE(SUM(LENGTH(COALESCE(message_id, '')) + LENGTH(COALESCE(user_text, '')) + LENGTH(COALESCE(reply, ''))
            + LENGTH(status) + LENGTH(COALESCE(delta, '')) + LENGTH(trace) + 16 + 8 + 8 + 8), 0) FROM turns)
       + (SELECT COALESCE(SUM(LENGTH(memory) + 8 + 16), 0) FROM snapshots) AS n`;

async function sqliteStore(dir) {
  const path = join(dir, "store.db");
  const db = new Database(path, { readonly: false });
  try {
    return await storeRun(
      "autograms store, SQLite",
      `sqlite:${path}`,
      () => {
        try {
          return Number(db.prepare(STORE_BYTES).get().n);
        } catch {
          return 0; // before the schema exists
        }
      },
      () => statSync(path).size + walSize(path),
    );
  } finally {
    db.close();
  }
}

const walSize = (path) => {
  try {
    return statSync(`${path}-wal`).size;
  } catch {
    return 0;
  }
};

async function postgresStore() {
  const server = process.env.BENCH_POSTGRES_URL ? null : await startPostgres();
  const url = process.env.BENCH_POSTGRES_URL ?? (await server.newDatabase());
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await storeRun("autograms store, Postgres", url, async () => {
      try {
        return Number((await client.query(STORE_BYTES.replaceAll("LENGTH(", "OCTET_LENGTH("))).rows[0].n);
      } catch {
        return 0;
      }
    });
  } finally {
    await client.end();
    server?.stop();
  }
}

// ---- LangGraph.js with its SQLite checkpointer ----------------------------------------------

async function langgraph(dir) {
  const path = join(dir, "langgraph.db");
  const saver = SqliteSaver.fromConnString(path);
  const State = Annotation.Root({ messages: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
  const app = new StateGraph(State)
    .addNode("talk", () => ({ messages: [{ role: "assistant", content: answer(nextAnswer) }] }))
    .addEdge(START, "talk")
    .addEdge("talk", END)
    .compile({ checkpointer: saver });
  const config = { configurable: { thread_id: "bench" } };
  const db = new Database(path);
  const bytes = () => {
    try {
      return Number(
        db
          .prepare(`
        SELECT (SELECT COALESCE(SUM(LENGTH(thread_id) + LENGTH(checkpoint_ns) + LENGTH(checkpoint_id) + LENGTH(COALESCE(parent_checkpoint_id, ''))
                  + LENGTH(COALESCE(type, '')) + LENGTH(checkpoint) + LENGTH(metadata)), 0) FROM checkpoints)
             + (SELECT COALESCE(SUM(LENGTH(thread_id) + LENGTH(checkpoint_ns) + LENGTH(checkpoint_id) + LENGTH(task_id) + 8
                  + LENGTH(channel) + LENGTH(COALESCE(type, '')) + LENGTH(value)), 0) FROM writes) AS n`)
          .get().n,
      );
    } catch {
      return 0;
    }
  };
  // The whole invoke is the turn: LangGraph writes its checkpoints inside it (the node itself is instant).
  const turn = async (i) => {
    nextAnswer = i;
    const start = performance.now();
    await app.invoke({ messages: [{ role: "user", content: i === 1 ? "" : user(i) }] }, config);
    return performance.now() - start;
  };
  try {
    return await run(
      "LangGraph.js SqliteSaver",
      turn,
      bytes,
      () => saver.getTuple(config),
      () => statSync(path).size + walSize(path),
    );
  } finally {
    db.close();
  }
}

// ---- report ----------------------------------------------------------------------------------

const dir = mkdtempSync(join(tmpdir(), "autograms-bench-store-"));
const results = [];
try {
  results.push(await sqliteStore(dir));
  results.push(await postgresStore());
  results.push(await langgraph(dir));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const ranges = CHECKPOINTS.map((n, k) => [k === 0 ? 1 : CHECKPOINTS[k - 1] + 1, n]);
const ms = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
const kb = (b) =>
  b < 10_240
    ? `${Math.round(b)} B`
    : b < 10_485_760
      ? `${(b / 1024).toFixed(1)} KiB`
      : `${(b / 1048576).toFixed(1)} MiB`;

console.log(`${TURNS} turns; a turn's own text (user + reply) is about ${turnText(500)} bytes\n`);
console.log("commit latency per turn, p50 / p99 (ms)");
console.log(["", ...ranges.map(([a, b]) => `turns ${a}-${b}`)].join(" | "));
for (const r of results) {
  console.log(
    [
      r.name,
      ...ranges.map(([a, b]) => {
        const xs = r.commits.slice(a - 1, b);
        return `${ms(median(xs))} / ${ms(percentile(xs, 99))}`;
      }),
    ].join(" | "),
  );
}
console.log("\nbytes written for the turn (running average per turn, snapshots included)");
console.log(["", ...CHECKPOINTS.map((n) => `turn ${n}`)].join(" | "));
for (const r of results)
  console.log(
    [r.name, ...CHECKPOINTS.map((n) => `${kb(r.perTurn[n].turn)} (${kb(r.perTurn[n].average)})`)].join(" | "),
  );
console.log(`\nloading the thread at turn ${TURNS} (median of ${LOADS})`);
for (const r of results) console.log(`${r.name} | ${ms(r.load)} ms${r.file ? ` | file ${kb(r.file)}` : ""}`);
