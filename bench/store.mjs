// Stored conversations: the same 1,000-turn conversation kept by the store on SQLite and on
// Postgres, and by LangGraph.js's SQLite checkpointer (@langchain/langgraph-checkpoint-sqlite),
// in one run. For the store, each turn is a whole stored turn (`runTurn`: lease, load, reply,
// commit): its p50 at turns 1-100 and 901-1,000 and their ratio (flat: 1.0). For each: the
// commit's latency per turn (p50 / p99 over turns 1-10, 11-100, 101-1,000), the bytes the store
// wrote for the turn at turns 10, 100 and 1,000 (and the running average, snapshots included), and
// the time to load the thread at turn 1,000 from a process that has not seen it.
//
//   npm run build && node bench/store.mjs [turns, default 1000] [--langgraph]
//
// LangGraph's rows are measured with --langgraph only: its checkpoints grow with the
// conversation (over a GiB at turn 1,000), so it takes minutes.
// The conversation's text is ordinary prose (sentences of the docs, different every turn), not a
// repeated template, which deflate would shrink to almost nothing. Postgres is a temporary server
// started here (Debian's postgresql package: initdb, pg_ctl), or the database BENCH_POSTGRES_URL
// names; without either, the Postgres rows are skipped with a line saying why. Bytes are what the rows hold (text and blob lengths), the
// same measure for every store (bench/support/stored-bytes.mjs); the SQLite file sizes are printed too.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Agent } from "../runtime/dist/index.js";
import { openStore, runTurn } from "../store/dist/index.js";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { startPostgres } from "../test/store/support/postgres-server.mjs";
import { storedBytes } from "./support/stored-bytes.mjs";

const TURNS = Number(process.argv.slice(2).find((a) => !a.startsWith("--")) ?? 1000);
const CHECKPOINTS = [10, 100, 1000].filter((n) => n <= TURNS);
const LOADS = 20;
const FIRST = 100;
const LAST = [Math.max(1, TURNS - 99), TURNS];

/** The docs' prose as sentences: headings, tables, lists and code left out. */
const docs = new URL("../docs/", import.meta.url);
const sentences = readdirSync(docs)
  .filter((f) => f.endsWith(".md"))
  .sort()
  .flatMap((f) =>
    readFileSync(new URL(f, docs), "utf8")
      .replace(/```[\s\S]*?```/g, "")
      .split(/\n\s*\n/)
      .filter((p) => /^[A-Z]/.test(p.trim()))
      .flatMap((p) => p.replace(/\s+/g, " ").split(/(?<=[.!?]) (?=[A-Z])/)),
  )
  .filter((x) => x.length > 30);
/** About `bytes` of sentences, starting at a place that moves with `i`. */
const prose = (i, bytes, salt) => {
  let out = "";
  for (let k = (i * 7919 + salt) % sentences.length; out.length < bytes; k = (k + 1) % sentences.length)
    out += (out ? " " : "") + sentences[k];
  return out;
};
const user = (i) => prose(i, 100, 0);
const answer = (i) => prose(i, 380, 104729);
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
async function run(name, turn, bytes, load, fileSize, turnTimes) {
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
  return { name, commits, perTurn, load: median(loads), file: fileSize?.(), turns: turnTimes };
}

// ---- the store -----------------------------------------------------------------------------

async function storeRun(name, url, rowBytes, fileSize) {
  const store = await openStore(url);
  const agent = new Agent(graph, { model });
  const id = "bench";
  // The commit's share of the turn, timed where runTurn calls it.
  let commitMs = 0;
  const timed = new Proxy(store, {
    get(target, key) {
      const value = target[key];
      if (key === "commit")
        return async (...args) => {
          const start = performance.now();
          try {
            return await value.apply(target, args);
          } finally {
            commitMs = performance.now() - start;
          }
        };
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const cold = await openStore(url);
  const turns = [];
  const turn = async (i) => {
    nextAnswer = i;
    const start = performance.now();
    await runTurn(timed, agent, id, i === 1 ? null : user(i), { messageId: `m${i}` });
    turns.push(performance.now() - start);
    return commitMs;
  };
  try {
    return await run(
      name,
      turn,
      () => rowBytes(),
      // Another store on the same database, which has not seen the thread: a load from the rows.
      () => cold.load(id),
      fileSize,
      turns,
    );
  } finally {
    await cold.close();
    await store.close();
  }
}

async function sqliteStore(dir) {
  const path = join(dir, "store.db");
  const bytes = await storedBytes(`sqlite:${path}`);
  try {
    return await storeRun(
      "autograms store, SQLite",
      `sqlite:${path}`,
      async () => (await bytes.read()).total,
      () => statSync(path).size + walSize(path),
    );
  } finally {
    await bytes.close();
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
  let server = null;
  if (!process.env.BENCH_POSTGRES_URL) {
    try {
      server = await startPostgres();
    } catch (err) {
      console.log(`Postgres skipped: ${err instanceof Error ? err.message : String(err)}\n`);
      return null;
    }
  }
  const url = process.env.BENCH_POSTGRES_URL ?? (await server.newDatabase());
  const bytes = await storedBytes(url);
  try {
    return await storeRun("autograms store, Postgres", url, async () => (await bytes.read()).total);
  } finally {
    await bytes.close();
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
  const postgres = await postgresStore();
  if (postgres) results.push(postgres);
  if (process.argv.includes("--langgraph")) results.push(await langgraph(dir));
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

const textBytes = Array.from({ length: TURNS }, (_, i) => turnText(i + 1));
console.log(`${TURNS} turns; a turn's own text (user + reply) is ${median(textBytes)} bytes (median)\n`);
console.log("a stored turn (runTurn: lease, load, reply, commit), p50 (ms)");
console.log(["", `turns 1-${FIRST}`, `turns ${LAST[0]}-${LAST[1]}`, "ratio"].join(" | "));
for (const r of results.filter((r) => r.turns)) {
  const a = median(r.turns.slice(0, FIRST));
  const b = median(r.turns.slice(LAST[0] - 1, LAST[1]));
  console.log([r.name, ms(a), ms(b), `${(b / a).toFixed(2)}x`].join(" | "));
}
console.log("");
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
console.log(`\nloading the thread at turn ${TURNS} in a store that has not seen it (median of ${LOADS})`);
for (const r of results) console.log(`${r.name} | ${ms(r.load)} ms${r.file ? ` | file ${kb(r.file)}` : ""}`);
