// autograms serve under load, and what serving adds to a turn. Sections (--sections a,b,...;
// default compare,workers, about three minutes on an idle two-core machine):
//
//  compare: the server's cost per message against a bare server. The same clients send the same
//     messages through POST /api/chat (the AI SDK UI message stream, read to [DONE]) to the
//     built server (bench/support/serve-offline.mjs: listen(), the offline model without its demo
//     pause between words) and to bench/support/bare-server.mjs (Hono + @hono/node-server
//     committing one ~1 KB row and streaming the same SSE frames as the agent's turn), on SQLite
//     and on Postgres: server CPU per message (the process's user + system time), turns/s and a
//     turn's p50 / p99, with one client and with --clients at once, side by side with the ratios;
//     both servers run side by side: each first plays --warmup messages, not measured, then
//     --rounds rounds measure one and the other in turn, and each figure is the median of its
//     rounds (with the range of the CPU ratio), and each server's resident memory (all its
//     threads) at rest (3 s after its first two messages) and once its rounds are over. A third row sends each of one client's messages
//     to a new thread (for the autograms server, the agent's opening and the message). The
//     warm-up is long because V8's is: after 300 messages it still spent about 1 ms a message of
//     background CPU optimizing the autograms server's functions (--trace-opt: 1.1 s in the next
//     1,000 messages; 0.4 s after 2,000), which a server that stays up pays once;
//  workers: an agent whose turns are CPU-heavy (bench/agents/busy-loop.ts, --steps loop steps a
//     turn): turns/s with --workers 1 and 2, --rounds times each, alternating, and the ratio of
//     their medians; the server's CPU per turn split into
//     its main thread's, its workers' and its other threads' (V8's garbage collection helpers
//     mostly); each thread's time running, waiting for a core and idle (Linux: /proc schedstat);
//     the clients' own CPU (they only count the bytes of each response);
//  load: --clients threads at once, --messages each through POST /api/chat: turns/s, time to the
//     first text delta and to [DONE] (p50 / p99), on SQLite and on Postgres;
//  ttft: a local OpenAI-compatible model server that streams its answer (the first piece after
//     100 ms, then a piece every 5 ms): the model's own time to first token against the time to the
//     first text-delta frame through the server (one client, 50 turns, medians);
//  thread: one conversation of --thread-turns messages (default 300) through POST /api/chat, on
//     SQLite and on Postgres, --rounds times, each round a new thread after --warmup messages on
//     another (not measured): the server's CPU per message (all its threads, Linux's schedstat) at
//     the first 20 turns and at the last 20, and their ratio in each round (growth: what a long
//     conversation adds to a message; the messages sent as useChat sends them, each with the whole
//     conversation before it); a second row, in the same rounds on the same server, for a client
//     that sends the new message alone (useChat with prepareSendMessagesRequest, as
//     samples/web does); then the bytes the last round's thread stores a turn
//     (bench/support/stored-bytes.mjs), at its end (the server's default resume window: every
//     run's events kept) and once a resume window has passed (a server started again with
//     --resume-window-ms, default 2000 here, and its sweep has dropped them);
//  events: the same turns in one process with runTurn alone and through the server's RunManager
//     (run recorded, events numbered and stored in batches), per turn: the median time, and the
//     process's CPU (what a served message costs before HTTP, SSE and routing), after --warmup
//     turns of each.
//
//   npm run build && node bench/serve.mjs [--sections compare,workers,load,ttft,thread,events]
//     [--thread-turns 300] [--resume-window-ms 2000] [--solo 300] [--warmup 2000] [--clients 100] [--messages 3] [--steps 10000] [--heavy-seconds 10] [--rounds 3]
//     [--serve-workers N] [--cpu-prof DIR] [--node-flags="..."] [--no-postgres]
//
// --serve-workers N plays compare's turns in N worker threads (default 0: in the server's thread,
// so what is compared is the serving path itself); with N above 0, a third server with none is
// measured in the same rounds, and a second table gives the pool's price (N workers / none); --cpu-prof DIR writes the autograms server's CPU profiles there (one per
// thread; open them in Chrome's DevTools); --node-flags starts the autograms server with those Node
// and V8 flags (for instance --single-threaded-gc). Postgres is a temporary server started here
// (Debian's postgresql package; fsync off, as the tests start it), or BENCH_POSTGRES_URL; without
// either, its rows say it was skipped.
import { spawn } from "node:child_process";
import { Agent as HttpAgent, createServer, request } from "node:http";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Agent } from "../runtime/dist/index.js";
import { openStore, runTurn } from "../store/dist/index.js";
import { InProcessPlayer, RunManager, ServedAgents } from "../server/dist/index.js";
import { startPostgres } from "../test/store/support/postgres-server.mjs";
import { storedBytes } from "./support/stored-bytes.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const { values: flags } = parseArgs({
  options: {
    sections: { type: "string", default: "compare,workers" },
    solo: { type: "string", default: "300" },
    warmup: { type: "string", default: "2000" },
    clients: { type: "string", default: "100" },
    messages: { type: "string", default: "3" },
    steps: { type: "string", default: "10000" },
    "heavy-seconds": { type: "string", default: "10" },
    rounds: { type: "string", default: "3" },
    "thread-turns": { type: "string", default: "300" },
    "resume-window-ms": { type: "string", default: "2000" },
    "serve-workers": { type: "string" },
    "cpu-prof": { type: "string" },
    "node-flags": { type: "string", default: "" },
    "no-postgres": { type: "boolean", default: false },
  },
});
const count = (name) => {
  const n = Number(flags[name]);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} takes a whole number, at least 1, not ${flags[name]}`);
  return n;
};
const SECTIONS = new Set(flags.sections.split(","));
for (const s of SECTIONS)
  if (!["compare", "workers", "load", "ttft", "thread", "events"].includes(s))
    throw new Error(`--sections: no section '${s}' (compare, workers, load, ttft, thread, events)`);
const SOLO = count("solo");
const WARMUP = count("warmup");
const THREADS = count("clients");
const MESSAGES = count("messages");
const STEPS = count("steps");
const HEAVY_SECONDS = count("heavy-seconds");
/** Clients of the CPU-heavy agent: each worker has a turn to play while another crosses the network. */
const HEAVY_CLIENTS = 4;
const ROUNDS = count("rounds");
const THREAD_TURNS = count("thread-turns");
const RESUME_WINDOW_MS = count("resume-window-ms");
/** The turns at each end of the thread whose CPU is compared. */
const GROWTH_TURNS = Math.min(20, Math.floor(THREAD_TURNS / 2));
const SERVE_WORKERS = flags["serve-workers"] === undefined ? 0 : Number(flags["serve-workers"]);
const NODE_FLAGS = flags["node-flags"].split(" ").filter(Boolean);
const TTFT_TURNS = 50;
const EVENT_TURNS = 300;
const FIRST_PIECE_MS = 100;
const PIECE_MS = 5;

const GRAPH = {
  format: "autograms-graph",
  version: 1,
  agent: "Bench",
  globals: { count: 0 },
  functions: {},
  nodes: [
    { name: "greet", action: "chat_exact", instruction: "Hello! Ask me anything.", transitions: ["talk"] },
    { name: "talk", action: "chat", instruction: "Answer the user.", transitions: ["count_up"] },
    { name: "count_up", action: "code", instruction: "count = count + 1", transitions: ["talk"] },
  ],
};

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x) => `${x.toFixed(1)} ms`;

/** A server process: the built @autograms/server on `storeUrl`, with the offline model or a model server. */
function startServer(storeUrl, modelBaseURL) {
  const script = `
    import { Agent, OfflineModel, OpenAIModel } from "@autograms/runtime";
    import { openStore } from "@autograms/store";
    import { listen } from "@autograms/server";
    const [storeUrl, graph, baseURL] = process.argv.slice(1);
    const model = baseURL ? new OpenAIModel({ model: "bench", baseURL, apiKey: "x", stream: true }) : new OfflineModel();
    const store = await openStore(storeUrl);
    const server = await listen({ agent: new Agent(JSON.parse(graph), { model }), store, port: 0 });
    console.log(server.url);
    process.on("SIGTERM", async () => { await server.close(); await store.close(); process.exit(0); });
  `;
  const child = spawn(
    process.execPath,
    ["--input-type=module", "-e", script, storeUrl, JSON.stringify(GRAPH), modelBaseURL ?? ""],
    { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
  );
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding("utf8").once("data", (line) =>
      resolve({
        url: line.trim(),
        stop: () =>
          new Promise((r) => {
            child.once("close", r);
            child.kill("SIGTERM");
          }),
      }),
    );
    child.once("close", (code) => reject(new Error(`the server exited ${code}`)));
  });
}

/**
 * One chat turn (`message`, by default a made-up one), after the messages `before` (as useChat
 * sends the whole conversation every time): the times (ms) to the first text-delta frame and to [DONE], and the response.
 */
async function chatTurn(url, thread, i, message = `message ${i} of ${thread}`, before = []) {
  const start = performance.now();
  const send = () =>
    fetch(`${url}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        id: thread,
        messages: [...before, { id: `${thread}-${i}`, role: "user", parts: [{ type: "text", text: message }] }],
        trigger: "submit-message",
      }),
    });
  // A kept-alive connection the server closed as it was taken again (its idle timeout, on a busy
  // machine): the message is sent again, with its id, so it still makes one turn.
  const res = await send().catch((err) => {
    if (err?.cause?.code !== "UND_ERR_SOCKET" && err?.cause?.code !== "ECONNRESET") throw err;
    return send();
  });
  if (res.status !== 200) throw new Error(`${res.status}: ${await res.text()}`);
  const decoder = new TextDecoder();
  let first = null;
  let text = "";
  for await (const chunk of res.body) {
    text += decoder.decode(chunk, { stream: true });
    if (first === null && text.includes('"type":"text-delta"')) first = performance.now() - start;
  }
  if (!text.includes("data: [DONE]")) throw new Error(`no [DONE] in ${text.slice(-200)}`);
  return { first: first ?? NaN, done: performance.now() - start, text };
}

async function load(name, storeUrl) {
  const server = await startServer(storeUrl);
  try {
    await chatTurn(server.url, "warm-up", 0);
    const firsts = [];
    const dones = [];
    const start = performance.now();
    await Promise.all(
      Array.from({ length: THREADS }, async (_, t) => {
        for (let i = 1; i <= MESSAGES; i++) {
          const { first, done } = await chatTurn(server.url, `thread-${t}`, i);
          firsts.push(first);
          dones.push(done);
        }
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    const turns = THREADS * MESSAGES;
    console.log(
      `| ${name} | ${(turns / seconds).toFixed(0)} | ${ms(percentile(firsts, 50))} / ${ms(percentile(firsts, 99))} | ${ms(percentile(dones, 50))} / ${ms(percentile(dones, 99))} |`,
    );
  } finally {
    await server.stop();
  }
}

/** An OpenAI-compatible model server that streams "Sure: <the user's words>" in pieces. */
function startModelServer() {
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const c of req) body += c;
    const request = JSON.parse(body);
    const words = `Sure, here is my answer to what you said, in a few words.`.split(/(?= )/);
    const chunk = (delta, finish = null) =>
      `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: "bench", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    if (!request.stream) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: "c",
          object: "chat.completion",
          created: 0,
          model: "bench",
          choices: [{ index: 0, message: { role: "assistant", content: words.join("") }, finish_reason: "stop" }],
        }),
      );
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream" });
    await new Promise((r) => setTimeout(r, FIRST_PIECE_MS));
    res.write(chunk({ role: "assistant", content: words[0] }));
    for (const w of words.slice(1)) {
      await new Promise((r) => setTimeout(r, PIECE_MS));
      res.write(chunk({ content: w }));
    }
    res.end(chunk({}, "stop") + "data: [DONE]\n\n");
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ url: `http://127.0.0.1:${server.address().port}/v1`, close: () => server.close() }),
    ),
  );
}

/** The model's own time to its first piece: a streaming request straight to it. */
async function modelFirstPiece(baseURL) {
  const start = performance.now();
  const res = await fetch(`${baseURL}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "bench", stream: true, messages: [{ role: "user", content: "hello" }] }),
  });
  let first = null;
  for await (const chunk of res.body)
    if (first === null && new TextDecoder().decode(chunk).includes('"content"')) first = performance.now() - start;
  return first;
}

async function firstToken(dir) {
  const model = await startModelServer();
  const server = await startServer(`sqlite:${join(dir, "ttft.db")}`, model.url);
  try {
    await chatTurn(server.url, "ttft-warm-up", 0);
    await modelFirstPiece(model.url);
    const own = [];
    const through = [];
    for (let i = 1; i <= TTFT_TURNS; i++) {
      own.push(await modelFirstPiece(model.url));
      through.push((await chatTurn(server.url, "ttft", i)).first);
    }
    const a = percentile(own, 50);
    const b = percentile(through, 50);
    console.log(
      `| model alone (first piece) | ${ms(a)} |\n| through autograms serve (first text-delta frame) | ${ms(b)} |\n| overhead | ${ms(b - a)} |`,
    );
  } finally {
    await server.stop();
    model.close();
  }
}

/** Milliseconds per turn, sequential turns on one thread: runTurn alone, and with the run's events recorded and stored. */
async function eventCost(name, storeUrl) {
  const store = await openStore(storeUrl);
  const agent = new Agent(GRAPH, {
    model: { complete: async (req) => `echo: ${req.messages.at(-1).content.slice(-40)}`, choose: async () => 0 },
  });
  const build = { name: agent.graph.agent, agent, player: new InProcessPlayer(agent), number: 1, sources: [] };
  const runs = new RunManager(store, new ServedAgents([build], false), { policy: "reject" });
  /** A turn through the RunManager, until its run's last events are stored. */
  const recordedTurn = async (thread, text) => {
    const started = await runs.start(thread, text);
    await runs.liveRun(started.runId)?.stored;
  };
  /** The process's CPU (all its threads) over each kind of turn, ms. */
  const cpu = { plain: 0, recorded: 0 };
  const time = async (kind, turn, measured) => {
    const start = performance.now();
    const before = process.cpuUsage();
    await turn();
    const used = process.cpuUsage(before);
    if (measured) cpu[kind] += (used.user + used.system) / 1000;
    return performance.now() - start;
  };
  const plain = [];
  const recorded = [];
  try {
    // --warmup turns of each first, on threads of their own, not measured (V8 optimizes meanwhile).
    for (let i = 0; i < WARMUP; i++) {
      const text = i === 0 ? null : `message ${i}`;
      await runTurn(store, agent, "warm-plain", text);
      await recordedTurn("warm-recorded", text);
    }
    // Turn by turn, one of each, so that both see the same warm-up and the same machine.
    for (let i = 0; i < EVENT_TURNS; i++) {
      const text = i === 0 ? null : `message ${i}`;
      // The first turns warm the code up.
      const a = await time("plain", () => runTurn(store, agent, "plain", text), i >= 10);
      const b = await time("recorded", () => recordedTurn("recorded", text), i >= 10);
      if (i >= 10) plain.push(a), recorded.push(b);
    }
    const [p, r] = [percentile(plain, 50), percentile(recorded, 50)];
    const perTurn = (kind) => `${(cpu[kind] / plain.length).toFixed(2)} ms`;
    console.log(
      `| ${name} | ${ms(p)} | ${ms(r)} | ${r >= p ? "+" : "-"}${ms(Math.abs(r - p))} (${r >= p ? "+" : ""}${((r / p - 1) * 100).toFixed(0)}%) | ${perTurn("plain")} / ${perTurn("recorded")} |`,
    );
  } finally {
    await runs.close();
    await store.close();
  }
}

/** A process's /proc stat fields after its command's name: [0] its state, [1] its parent's pid, ... */
function statFields(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
}

/** A process, and the CPU seconds (user + system, all its threads) it has used so far. */
function cpuSeconds(pid) {
  const fields = statFields(pid);
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** A process's resident memory (all its threads: worker threads are the process's), MiB. */
function rssMiB(pid) {
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) / 1024;
}

/** A child process that prints `listening on URL` once it serves. */
function startChild(args, name) {
  const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stderr.on("data", (c) => (err += c));
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (c) => {
      out += c;
      const m = /listening on (\S+)/.exec(out);
      if (m)
        resolve({
          url: m[1],
          pid: child.pid,
          output: () => out,
          stop: () =>
            new Promise((r) => {
              child.once("exit", r);
              child.kill("SIGTERM");
            }),
        });
    });
    child.once("exit", (code) => reject(new Error(`${name} exited ${code}: ${err}`)));
  });
}

/**
 * The built @autograms/server (bench/support/serve-offline.mjs) serving `graphFile` on `storeUrl`,
 * turns in `workers` worker threads, run events dropped `resumeWindowMs` after their run (default: the server's).
 */
function autogramsServe(graphFile, storeUrl, workers, resumeWindowMs) {
  const prof = flags["cpu-prof"] ? ["--cpu-prof", "--cpu-prof-dir", flags["cpu-prof"]] : [];
  const window = resumeWindowMs === undefined ? [] : [String(resumeWindowMs)];
  return startChild(
    [
      ...prof,
      ...NODE_FLAGS,
      join(root, "bench/support/serve-offline.mjs"),
      graphFile,
      storeUrl,
      String(workers),
      ...window,
    ],
    "autograms server",
  );
}

/** The SSE frames of a response, as the bare server writes them again. */
function framesOf(text) {
  return text
    .split("\n\n")
    .filter((block) => block.startsWith("id: "))
    .map((block) => {
      const [id, ...rest] = block.split("\n");
      return { id: id.slice(4), data: rest.find((l) => l.startsWith("data: ")).slice(6) };
    });
}

/**
 * `clients` threads at once, each sending `messages` messages one after the other (after one
 * message each that warms the server up and is not measured): turns/s, a turn's p50 / p99, and
 * the server's CPU per message. `fresh`: each message is the first of a thread of its own (for the
 * autograms server, the agent's opening and the message in one response).
 */
async function measure(server, prefix, clients, messages, fresh = false, database = null) {
  if (!fresh) await Promise.all(Array.from({ length: clients }, (_, t) => chatTurn(server.url, `${prefix}-${t}`, 0)));
  const cpu = cpuSeconds(server.pid);
  const databaseCpu = database?.();
  const latencies = [];
  const start = performance.now();
  const send = (t, i) =>
    fresh ? chatTurn(server.url, `${prefix}-${t}-${i}`, 0) : chatTurn(server.url, `${prefix}-${t}`, i);
  await Promise.all(
    Array.from({ length: clients }, async (_, t) => {
      for (let i = 1; i <= messages; i++) latencies.push((await send(t, i)).done);
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  const turns = clients * messages;
  return {
    cpuMs: ((cpuSeconds(server.pid) - cpu) * 1000) / turns,
    ...(database && { databaseMs: ((database() - databaseCpu) * 1000) / turns }),
    perSecond: turns / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

/** The compare section's rows: one client on one thread, THREADS at once, one client starting a thread each message. */
const COMPARE_ROWS = [
  { label: "1", prefix: "solo", clients: 1, messages: SOLO, fresh: false },
  { label: String(THREADS), prefix: "many", clients: THREADS, messages: MESSAGES, fresh: false },
  { label: "1, new threads", prefix: "new", clients: 1, messages: SOLO, fresh: true },
];

/**
 * The autograms server against the bare server on one store, with one client and with THREADS:
 * both servers up and warmed, then ROUNDS rounds that measure each in turn (fresh threads every
 * round), so that both see the same state of the machine; each figure is the median of its rounds.
 * `database`: the CPU seconds its database's processes have used (Postgres started here), for the
 * database's CPU per message, printed after the table (`notes`).
 */
async function compare(name, storeUrlOf, database = null, notes = [], pool = []) {
  const agentFile = join(dir, "bench-agent.json");
  writeFileSync(agentFile, JSON.stringify(GRAPH));
  const framesFile = join(dir, "frames.json");
  const ours = await autogramsServe(agentFile, storeUrlOf("autograms"), SERVE_WORKERS);
  let bare;
  let inline;
  let frames;
  const rounds = {
    autograms: COMPARE_ROWS.map(() => []),
    bare: COMPARE_ROWS.map(() => []),
    inline: COMPARE_ROWS.map(() => []),
  };
  /** Each server's resident memory at rest (3 s after its first messages), and once its rounds are over. */
  const rested = {};
  const rss = {};
  try {
    // The frames of an ordinary turn (a thread's second message) for the bare server to send.
    await chatTurn(ours.url, "frames", 0);
    frames = framesOf((await chatTurn(ours.url, "frames", 1)).text);
    writeFileSync(framesFile, JSON.stringify(frames));
    bare = await startChild(
      [join(root, "bench/support/bare-server.mjs"), storeUrlOf("bare"), framesFile],
      "bare server",
    );
    // With worker threads, the same server with none is measured in the same rounds too: the pool's price.
    if (SERVE_WORKERS > 0) inline = await autogramsServe(agentFile, storeUrlOf("inline"), 0);
    const servers = [["autograms", ours], ["bare", bare], ...(inline ? [["inline", inline]] : [])];
    await measure(bare, "rest", 1, 2);
    if (inline) await measure(inline, "rest", 1, 2);
    await new Promise((r) => setTimeout(r, 3000));
    for (const [who, server] of servers) rested[who] = rssMiB(server.pid);
    for (const [, server] of servers) await measure(server, "warm", 1, WARMUP);
    for (let r = 0; r < ROUNDS; r++)
      for (const [i, { prefix, clients, messages, fresh }] of COMPARE_ROWS.entries())
        for (const [who, server] of servers)
          rounds[who][i].push(await measure(server, `${prefix}-${r}`, clients, messages, fresh, database));
    for (const [who, server] of servers) rss[who] = rssMiB(server.pid);
  } finally {
    await ours.stop();
    await bare?.stop();
    await inline?.stop();
  }
  const median = (results, key) =>
    percentile(
      results.map((x) => x[key]),
      50,
    );
  const row = ({ label }, i, against = "bare") => {
    const [a, b] = [rounds.autograms[i], rounds[against][i]];
    const cell = (key, show) => {
      const [x, y] = [median(a, key), median(b, key)];
      return `${show(x)} / ${show(y)} (${(x / y).toFixed(2)}x)`;
    };
    // The CPU ratio of each round, to show the spread behind the median.
    const each = a.map((x, k) => x.cpuMs / b[k].cpuMs).sort((p, q) => p - q);
    const spread = each.length > 1 ? `, rounds ${each[0].toFixed(2)}-${each.at(-1).toFixed(2)}x` : "";
    return `| ${name} | ${label} | ${cell("cpuMs", (x) => `${x.toFixed(2)} ms`)}${spread} | ${cell("perSecond", (x) => x.toFixed(0))} | ${cell("p50", ms)} | ${cell("p99", ms)} |`;
  };
  const memory = (a, b, at = rss) => {
    const more = at[a] - at[b];
    return `${at[a].toFixed(0)} MiB / ${at[b].toFixed(0)} MiB (${more >= 0 ? "+" : ""}${more.toFixed(0)} MiB)`;
  };
  for (const [i, spec] of COMPARE_ROWS.entries()) {
    console.log(row(spec, i));
    if (inline) pool.push(row(spec, i, "inline"));
    if (database) {
      const [x, y] = [median(rounds.autograms[i], "databaseMs"), median(rounds.bare[i], "databaseMs")];
      notes.push(
        `${name}'s own CPU per message, ${spec.label}: ${x.toFixed(2)} ms / ${y.toFixed(2)} ms (${(x / y).toFixed(2)}x)`,
      );
    }
  }
  notes.push(
    `${name}, the servers' resident memory at rest, autograms / bare: ${memory("autograms", "bare", rested)}; after their rounds: ${memory("autograms", "bare")}`,
  );
  if (inline) {
    pool.push(`| ${name} | resident memory at rest | ${memory("autograms", "inline", rested)} | | | |`);
    pool.push(`| ${name} | resident memory after the rounds | ${memory("autograms", "inline")} | | | |`);
  }
  return frames.length;
}

/** The CPU seconds all of a process's threads ran so far (schedstat: finer than /proc/PID/stat's ticks). */
const runSeconds = (pid) => [...threadTimes(pid).values()].reduce((sum, t) => sum + t.run, 0);

/**
 * One long conversation: ROUNDS threads of THREAD_TURNS messages each, the server's CPU per
 * message at the first and the last GROWTH_TURNS turns of each (their ratio, round by round: the
 * same machine for both ends), sent as useChat sends them (the whole conversation each time) and,
 * in the same rounds, by a client that sends the new message alone; then the bytes the last
 * thread stores a turn, before and after the resume window.
 */
async function longThread(name, storeUrl) {
  const agentFile = join(dir, "thread-agent.json");
  writeFileSync(agentFile, JSON.stringify(THREAD_GRAPH));
  let server = await autogramsServe(agentFile, storeUrl, SERVE_WORKERS);
  const bytes = await storedBytes(storeUrl);
  /** The CPU a message at each end of a new thread; `whole`: the conversation sent with each message. */
  const conversation = async (thread, whole) => {
    const cpu = [];
    const history = [];
    let words = 0;
    for (let i = 0; i <= THREAD_TURNS; i++) {
      const before = runSeconds(server.pid);
      const { text } = await chatTurn(server.url, thread, i, threadMessage(i), whole ? history : []);
      // Message 0 is the thread's first: the agent's opening with it, not measured.
      if (i > 0) cpu.push((runSeconds(server.pid) - before) * 1000);
      const reply = replyOf(text);
      history.push(
        { id: `${thread}-${i}`, role: "user", parts: [{ type: "text", text: threadMessage(i) }] },
        { id: `${thread}-reply-${i}`, role: "assistant", parts: [{ type: "text", text: reply }] },
      );
      if (i === THREAD_TURNS) words = reply.split(/\s+/).filter(Boolean).length;
    }
    // The median message of each end: a collection or V8's compiling in the background lands on one message now and then.
    return { ends: [percentile(cpu.slice(0, GROWTH_TURNS), 50), percentile(cpu.slice(-GROWTH_TURNS), 50)], words };
  };
  try {
    for (let i = 0; i <= WARMUP; i++) await chatTurn(server.url, "thread-warm-up", i);
    const whole = [];
    const alone = [];
    let words = 0;
    let thread = "";
    for (let r = 0; r < ROUNDS; r++) {
      thread = `long-${r}`;
      const sent = await conversation(thread, true);
      whole.push(sent.ends);
      words = sent.words;
      alone.push((await conversation(`alone-${r}`, false)).ends);
    }
    // The agent's opening, the first message, then THREAD_TURNS more.
    const turns = THREAD_TURNS + 2;
    const kept = await bytes.read(thread);
    // A server whose resume window (RESUME_WINDOW_MS) has passed: its sweep drops the events.
    await server.stop();
    server = await autogramsServe(agentFile, storeUrl, SERVE_WORKERS, RESUME_WINDOW_MS);
    const deadline = Date.now() + RESUME_WINDOW_MS + 120_000;
    let after = kept;
    while (after.events > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      after = await bytes.read(thread);
    }
    const kib = (b) => `${(b / turns / 1024).toFixed(2)} KiB`;
    const split = (b) =>
      `${kib(b.total)} (turns ${kib(b.turns)}, snapshots ${kib(b.snapshots)}, runs ${kib(b.runs)}, run events ${kib(b.events)})`;
    const growth = (ends) => {
      const ratios = ends.map(([a, b]) => b / a).sort((p, q) => p - q);
      const median = (at) =>
        percentile(
          ends.map((e) => e[at]),
          50,
        );
      return `${median(0).toFixed(2)} ms | ${median(1).toFixed(2)} ms | ${percentile(ratios, 50).toFixed(2)}x (rounds ${ratios.map((x) => x.toFixed(2)).join(", ")})`;
    };
    console.log(
      `| ${name}, the whole conversation sent (useChat's default) | ${growth(whole)} | ${words} | ${split(kept)} | ${after.events > 0 ? "not dropped in time" : split(after)} |`,
    );
    console.log(
      `| ${name}, the new message alone (prepareSendMessagesRequest) | ${growth(alone)} | ${words} | as above | as above |`,
    );
  } finally {
    await bytes.close();
    await server.stop();
  }
}

/** A message, which the offline model echoes (its first 60 characters) in its reply. */
const threadMessage = (i) => `This is message ${i} of a long conversation between a user and an agent.`;

/**
 * The bench's agent with an instruction the offline model says back in full: a reply of about
 * 40 words, as an ordinary answer of a chat model has.
 */
const THREAD_GRAPH = {
  ...GRAPH,
  nodes: GRAPH.nodes.map((n) =>
    n.name === "talk"
      ? {
          ...n,
          instruction:
            "Answer the user in a few plain sentences, saying what you understood of the question, what the answer is, and what the user could ask next if they want to know more about it.",
        }
      : n,
  ),
};

/** The reply in a UI message stream's frames. */
function replyOf(text) {
  return text
    .split("\n\n")
    .flatMap((b) => b.split("\n").filter((l) => l.startsWith("data: {")))
    .map((l) => JSON.parse(l.slice(6)))
    .filter((c) => c.type === "text-delta")
    .map((c) => c.delta)
    .join("");
}

/**
 * Each thread of a process so far, by thread id (one that has exited is left out): the seconds it
 * ran and the seconds it was ready to run but waited for a core (Linux's schedstat).
 */
function threadTimes(pid) {
  const out = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ").map(Number);
      out.set(Number(tid), { run: run / 1e9, wait: wait / 1e9 });
    } catch {
      // It exited between the listing and the read.
    }
  }
  return out;
}

/**
 * One chat turn read the cheap way (node:http, the bytes counted and the end checked, nothing
 * decoded or parsed), so the clients of the workers section leave the cores to the server: its
 * number of bytes.
 */
function drainTurn(url, thread, i, message) {
  const body = JSON.stringify({
    id: thread,
    messages: [{ id: `${thread}-${i}`, role: "user", parts: [{ type: "text", text: message }] }],
    trigger: "submit-message",
  });
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/api/chat`,
      { method: "POST", agent: drainAgent, headers: { "content-type": "application/json" } },
      (res) => {
        let bytes = 0;
        let tail = "";
        res.on("data", (chunk) => {
          bytes += chunk.length;
          tail = (tail + chunk.subarray(-16).toString("latin1")).slice(-16);
        });
        res.on("end", () => {
          if (res.statusCode !== 200) reject(new Error(`${res.statusCode}: ${tail}`));
          else if (!tail.includes("data: [DONE]")) reject(new Error(`no [DONE] at the end of the response (${tail})`));
          else resolve(bytes);
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
const drainAgent = new HttpAgent({ keepAlive: true });

/** turns/s of an agent whose turns compute STEPS loop steps, with 1 and 2 worker threads. */
async function heavy() {
  const graphFile = join(dir, "busy-loop.json");
  await new Promise((resolve, reject) =>
    spawn(
      process.execPath,
      [join(root, "cli/bin/autograms.js"), "compile", join(root, "bench/agents/busy-loop.ts"), "-o", graphFile],
      {
        stdio: ["ignore", "ignore", "inherit"],
      },
    ).once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`autograms compile exited ${code}`)))),
  );
  const rates = { 1: [], 2: [] };
  // One worker, then two, --rounds times over: what else the machine runs moves a single run's
  // turns/s by a third, so the ratio is of the medians.
  for (let round = 0; round < ROUNDS; round++)
    for (const workers of [1, 2]) await heavyRun(graphFile, workers, round, rates);
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const each = rates[1].map((r, i) => `${(rates[2][i] / r).toFixed(2)}x`).join(", ");
  console.log(
    `\n2 workers / 1 worker: ${(median(rates[2]) / median(rates[1])).toFixed(2)}x the median turns/s (each round: ${each})`,
  );
}

/**
 * One server with `workers` worker threads and its clients sending turn after turn: the turns that
 * end within a window of --heavy-seconds, once every client has played two, and a row of what they
 * cost. A window of steady load, not a fixed number of turns: at the end of a fixed number, the
 * clients finish one by one and the last turns run with fewer clients than workers, which read as
 * the workers being slow (each of two workers idled 1 to 15% of a run of 16 turns).
 */
async function heavyRun(graphFile, workers, round, rates) {
  const server = await autogramsServe(graphFile, `sqlite:${join(dir, `heavy-${workers}-${round}.db`)}`, workers);
  let stop = false;
  const loops = [];
  try {
    const clients = HEAVY_CLIENTS;
    const message = `work ${STEPS}`;
    // Each client's thread opened, then one turn each like those measured, before the window: the
    // workers' code is compiled and optimized first (each worker compiles its own).
    let warm = 0;
    let allWarm;
    const warmed = new Promise((r) => (allWarm = r));
    /** The window once it is open: the turns that ended in it and their bytes; `closed` once it is over. */
    let window = null;
    for (let t = 0; t < clients; t++)
      loops.push(
        (async () => {
          for (let i = 0; !stop; i++) {
            const read = await drainTurn(server.url, `heavy-${t}`, i, message);
            if (i === 1 && ++warm === clients) allWarm();
            if (window && !window.closed) {
              window.turns++;
              window.bytes += read;
            }
          }
        })(),
      );
    // A client that fails ends the wait at once with its error.
    await Promise.race([warmed, ...loops]);
    // The worker threads say their thread ids (bench/support/offline-worker.mjs): the server's
    // own thread (its id is the process's), each worker, and the rest (V8's and libuv's helper
    // threads) apart.
    const workerIds = [...server.output().matchAll(/worker thread (\d+)/g)].map((m) => Number(m[1]));
    const before = threadTimes(server.pid);
    const clientsCpu = process.cpuUsage();
    const start = performance.now();
    window = { turns: 0, bytes: 0, closed: false };
    await Promise.race([new Promise((r) => setTimeout(r, HEAVY_SECONDS * 1000)), ...loops]);
    window.closed = true;
    const seconds = (performance.now() - start) / 1000;
    const { turns, bytes } = window;
    if (turns === 0)
      throw new Error(`no turn of the CPU-heavy agent ended within ${HEAVY_SECONDS} s: give --heavy-seconds more`);
    const after = threadTimes(server.pid);
    const clientsUsed = process.cpuUsage(clientsCpu);
    const of = (tid, what = "run") => (after.get(tid)?.[what] ?? 0) - (before.get(tid)?.[what] ?? 0);
    let used = 0;
    for (const tid of after.keys()) used += of(tid);
    const main = of(server.pid);
    const inWorkers = workerIds.reduce((sum, tid) => sum + of(tid), 0);
    rates[workers].push(turns / seconds);
    const perTurn = (s) => `${((s * 1000) / turns).toFixed(0)} ms`;
    const share = (s) => `${Math.round((100 * s) / seconds)}%`;
    // A thread's time: computing, ready but waiting for a core (the machine is busy), or neither:
    // waiting for work (a worker with no turn to play).
    const thread = (tid) =>
      `${share(of(tid))} / ${share(of(tid, "wait"))} / ${share(seconds - of(tid) - of(tid, "wait"))}`;
    console.log(
      `| ${workers} | ${(turns / seconds).toFixed(2)} | ${perTurn(used)}: ${perTurn(main)} + ${perTurn(inWorkers)} + ${perTurn(used - main - inWorkers)} | ${share(used)} | ${thread(server.pid)} | ${workerIds.map(thread).join("; ")} | ${share((clientsUsed.user + clientsUsed.system) / 1e6)} | ${(bytes / turns / 1024).toFixed(0)} KiB | ${loadavg()[0].toFixed(1)} |`,
    );
  } finally {
    stop = true;
    await Promise.allSettled(loops);
    await server.stop();
  }
}

const dir = mkdtempSync(join(tmpdir(), "autograms-bench-serve-"));
let postgres = null;
/** A new Postgres database's URL, or null when there is no Postgres to measure. */
async function pgDatabase() {
  if (flags["no-postgres"]) return null;
  if (process.env.BENCH_POSTGRES_URL) return process.env.BENCH_POSTGRES_URL;
  try {
    postgres ??= await startPostgres();
    return await postgres.newDatabase();
  } catch (err) {
    console.log(`(Postgres skipped: ${err instanceof Error ? err.message.split("\n")[0] : err})`);
    flags["no-postgres"] = true;
    return null;
  }
}
/**
 * The CPU seconds the Postgres this bench started has used so far: its main process and the
 * processes it started (a backend per connection; the other server of a round is idle meanwhile).
 */
function postgresCpuSeconds() {
  const main = postgres.pid();
  let seconds = cpuSeconds(main);
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const fields = statFields(pid);
      if (Number(fields[1]) === main) seconds += (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      // It exited between the listing and the read.
    }
  }
  return seconds;
}
const skipped = (name) => console.log(`| ${name} | skipped: no Postgres (--no-postgres, or it could not start) |`);
try {
  if (SECTIONS.has("compare")) {
    console.log(
      `\nServer cost per message: the autograms server (offline model, ${SERVE_WORKERS} worker threads) / a bare Hono server (one ~1 KB row committed, the same SSE frames); 1 client x ${SOLO} messages, ${THREADS} clients x ${MESSAGES} messages\n`,
    );
    console.log(
      "| store | clients | server CPU per message | turns/s | turn p50 | turn p99 |\n|---|---|---|---|---|---|",
    );
    const notes = [];
    const pool = [];
    const frames = await compare("SQLite", (who) => `sqlite:${join(dir, `compare-${who}.db`)}`, null, notes, pool);
    const pg = { autograms: await pgDatabase(), bare: await pgDatabase() };
    if (pg.autograms && SERVE_WORKERS > 0) pg.inline = await pgDatabase();
    const database = postgres && process.platform === "linux" ? postgresCpuSeconds : null;
    if (pg.autograms) await compare("Postgres", (who) => pg[who], database, notes, pool);
    else skipped("Postgres");
    console.log(`\n(${frames} SSE frames a turn)`);
    for (const note of notes) console.log(note);
    if (pool.length) {
      console.log(
        `\nThe pool's price: the same server with ${SERVE_WORKERS} worker threads / with none (--workers 0), measured in the same rounds\n`,
      );
      console.log(
        "| store | clients | server CPU per message | turns/s | turn p50 | turn p99 |\n|---|---|---|---|---|---|",
      );
      for (const line of pool) console.log(line);
    }
  }
  if (SECTIONS.has("workers")) {
    console.log(
      `\nA CPU-heavy agent (bench/agents/busy-loop.ts, ${STEPS} loop steps a turn), ${HEAVY_CLIENTS} clients sending turn after turn, the turns that end in ${HEAVY_SECONDS} s of it, SQLite\n`,
    );
    console.log(
      "| --workers | turns/s | server CPU a turn: main thread + workers + other threads | CPU of the server | its main thread: running / waiting for a core / idle | each worker: the same | CPU of the clients | response a turn | load average |\n|---|---|---|---|---|---|---|---|---|",
    );
    await heavy();
  }
  if (SECTIONS.has("load")) {
    console.log(
      `\n${THREADS} threads at once, ${MESSAGES} messages each (${THREADS * MESSAGES} turns), offline model, one server process\n`,
    );
    console.log("| store | turns/s | first text delta p50 / p99 | whole turn p50 / p99 |\n|---|---|---|---|");
    await load("SQLite", `sqlite:${join(dir, "load.db")}`);
    const pg = await pgDatabase();
    if (pg) await load("Postgres", pg);
    else skipped("Postgres");
  }
  if (SECTIONS.has("ttft")) {
    console.log(
      `\nTime to first token, a model that streams (first piece after ${FIRST_PIECE_MS} ms), one client, median of ${TTFT_TURNS}\n`,
    );
    console.log("| | |\n|---|---|");
    await firstToken(dir);
  }
  if (SECTIONS.has("thread")) {
    console.log(
      `\nOne conversation of ${THREAD_TURNS} messages (offline model, ${SERVE_WORKERS} worker threads, after ${WARMUP} messages of warm-up), ${ROUNDS} rounds; resume window ${RESUME_WINDOW_MS} ms\n`,
    );
    console.log(
      `| store | server CPU a message, turns 1-${GROWTH_TURNS} | turns ${THREAD_TURNS - GROWTH_TURNS + 1}-${THREAD_TURNS} | growth (median; each round) | reply words | stored a turn, at the end | after the resume window |\n|---|---|---|---|---|---|---|`,
    );
    await longThread("SQLite", `sqlite:${join(dir, "thread.db")}`);
    const pg = await pgDatabase();
    if (pg) await longThread("Postgres", pg);
    else skipped("Postgres");
  }
  if (SECTIONS.has("events")) {
    console.log(
      `\nA turn's cost with its run's events recorded (in process, no HTTP), median of ${EVENT_TURNS - 10} sequential turns\n`,
    );
    console.log(
      "| store | runTurn alone | with run events | difference | CPU a turn: alone / with run events |\n|---|---|---|---|---|",
    );
    await eventCost("SQLite", `sqlite:${join(dir, "events.db")}`);
    const pg = await pgDatabase();
    if (pg) await eventCost("Postgres", pg);
    else skipped("Postgres");
  }
} finally {
  postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
}
