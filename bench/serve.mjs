// autograms serve under load, and what serving adds to a turn:
//
//  1. throughput and latency: 100 threads at once, each sending 10 messages one after the other
//     through POST /api/chat (the AI SDK UI message stream, read to its end), against one server
//     process with the offline model (no network, no delay): turns per second, and per turn the
//     time to the reply's first text delta and to [DONE] (p50 / p99); on SQLite and on Postgres;
//  2. time to first token: a local OpenAI-compatible model server that streams its answer (the
//     first piece after 100 ms, then a piece every 5 ms); the model's own time to first token
//     (read straight from it) against the time to the first text-delta frame through the server
//     (one client, 50 turns, medians);
//  3. the cost of a run's events: the same turns in one process with runTurn alone and through
//     the server's RunManager (run recorded, events numbered and stored in batches), per turn.
//
//   npm run build && node bench/serve.mjs [threads, default 100] [messages per thread, default 10]
//
// Postgres is a temporary server started here (Debian's postgresql package), or BENCH_POSTGRES_URL.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Agent } from "../runtime/dist/index.js";
import { openStore, runTurn } from "../store/dist/index.js";
import { RunManager } from "../server/dist/index.js";
import { startPostgres } from "../test/store/support/postgres-server.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const THREADS = Number(process.argv[2] ?? 100);
const MESSAGES = Number(process.argv[3] ?? 10);
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

/** One chat turn: the times (ms) to the first text-delta frame and to [DONE]. */
async function chatTurn(url, thread, i) {
  const start = performance.now();
  const res = await fetch(`${url}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      id: thread,
      messages: [{ id: `${thread}-${i}`, role: "user", parts: [{ type: "text", text: `message ${i} of ${thread}` }] }],
      trigger: "submit-message",
    }),
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
  return { first: first ?? NaN, done: performance.now() - start };
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
  const runs = new RunManager(store, agent, { policy: "reject" });
  const time = async (turn) => {
    const start = performance.now();
    await turn();
    return performance.now() - start;
  };
  const plain = [];
  const recorded = [];
  try {
    // Turn by turn, one of each, so that both see the same warm-up and the same machine.
    for (let i = 0; i < EVENT_TURNS; i++) {
      const text = i === 0 ? null : `message ${i}`;
      const a = await time(() => runTurn(store, agent, "plain", text));
      const b = await time(async () => {
        const started = await runs.start("recorded", text);
        await runs.liveRun(started.runId)?.stored;
      });
      if (i >= 10) plain.push(a), recorded.push(b); // the first turns warm the code up
    }
    const [p, r] = [percentile(plain, 50), percentile(recorded, 50)];
    console.log(`| ${name} | ${ms(p)} | ${ms(r)} | +${ms(r - p)} (${((r / p - 1) * 100).toFixed(0)}%) |`);
  } finally {
    await runs.close();
    await store.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), "autograms-bench-serve-"));
let postgres = null;
try {
  const pgUrl = process.env.BENCH_POSTGRES_URL ?? ((postgres = await startPostgres()), await postgres.newDatabase());
  console.log(
    `\n${THREADS} threads at once, ${MESSAGES} messages each (${THREADS * MESSAGES} turns), offline model, one server process\n`,
  );
  console.log("| store | turns/s | first text delta p50 / p99 | whole turn p50 / p99 |\n|---|---|---|---|");
  await load("SQLite", `sqlite:${join(dir, "load.db")}`);
  await load("Postgres", pgUrl);
  console.log(
    `\nTime to first token, a model that streams (first piece after ${FIRST_PIECE_MS} ms), one client, median of ${TTFT_TURNS}\n`,
  );
  console.log("| | |\n|---|---|");
  await firstToken(dir);
  console.log(
    `\nA turn's cost with its run's events recorded (in process, no HTTP), median of ${EVENT_TURNS - 10} sequential turns\n`,
  );
  console.log("| store | runTurn alone | with run events | difference |\n|---|---|---|---|");
  await eventCost("SQLite", `sqlite:${join(dir, "events.db")}`);
  await eventCost("Postgres", postgres ? await postgres.newDatabase() : pgUrl);
} finally {
  postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
}
