/**
 * Several real `autograms serve` processes on one store, and clients that send many threads'
 * messages spread at random across them, for the scale tests and bench/scale.mjs (plain
 * JavaScript, so the benchmark runs it without a build).
 *
 * A client behaves as a careful client of a load-balanced service does: each message has an id
 * (its idempotency key), and a message whose answer did not arrive (a connection refused or cut by
 * a killed process, 503 from a process shutting down, 409 while a dead process's lease has not
 * lapsed yet, a run that ended `run_lost` or `stopped`) is sent again, with the same id, to a
 * process chosen at random. What the store holds afterwards is then checked turn by turn.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../../store/support/postgres-server.mjs";

const root = fileURLToPath(new URL("../../..", import.meta.url));
export const bin = join(root, "cli/bin/autograms.js");

/** The store tests' echo agent: it greets, then answers every message in a loop (a code step counts them). */
export const ECHO_GRAPH = {
  format: "autograms-graph",
  version: 1,
  agent: "Echo",
  globals: { count: 0 },
  functions: {},
  nodes: [
    { name: "greet", action: "chat_exact", instruction: "Hello! Say something.", transitions: ["talk"] },
    { name: "talk", action: "chat", instruction: "Answer the user.", transitions: ["count_up"] },
    { name: "count_up", action: "code", instruction: "count = count + 1", transitions: ["talk"] },
  ],
};

/** @param {string} dir @returns {string} the graph file */
export function writeEchoGraph(dir) {
  const file = join(dir, "echo.graph.json");
  writeFileSync(file, JSON.stringify(ECHO_GRAPH));
  return file;
}

/**
 * @typedef {object} ServeProcess
 * @property {string} url
 * @property {import('node:child_process').ChildProcess} child
 * @property {() => string} stderr
 * @property {Promise<{ code: number | null, signal: string | null }>} exit
 */

/**
 * `autograms serve GRAPH --port PORT ...args`, resolved once it prints where it listens.
 * @param {{ graph: string, port: number, args: string[], cwd: string, env?: Record<string, string> }} o
 * @returns {Promise<ServeProcess>}
 */
export function startServe({ graph, port, args, cwd, env = {} }) {
  const child = spawn(process.execPath, [bin, "serve", graph, "--port", String(port), ...args], {
    cwd,
    env: { ...process.env, ...env },
  });
  let stdout = "";
  let stderr = "";
  const exit = new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding("utf8").on("data", (c) => {
      stdout += c;
      const m = /^listening on (http:\/\/\S+)\n/m.exec(stdout);
      if (m) resolve({ url: m[1], child, stderr: () => stderr, exit });
    });
    child.stderr.setEncoding("utf8").on("data", (c) => (stderr += c));
    void exit.then(({ code, signal }) =>
      reject(new Error(`autograms serve exited (${code ?? signal}) before listening:\n${stdout}\n${stderr}`)),
    );
  });
}

/**
 * N server processes, each on a port of its own that it keeps across restarts (as behind a load
 * balancer with a fixed list of backends).
 */
export class Cluster {
  /** @type {(ServeProcess | null)[]} */
  processes = [];
  /** @type {number[]} */
  ports = [];
  kills = 0;

  /** @param {{ graph: string, args: string[], cwd: string, env?: Record<string, string> }} options */
  constructor(options) {
    this.options = options;
  }

  /** @param {number} n */
  async start(n) {
    this.ports = await Promise.all(Array.from({ length: n }, () => freePort()));
    this.processes = Array.from({ length: n }, () => null);
    await Promise.all(this.ports.map((_, i) => this.restart(i)));
    return this;
  }

  /** Every process's address, whether it is up or not (a client finds out). */
  get urls() {
    return this.ports.map((port) => `http://127.0.0.1:${port}`);
  }

  /**
   * Starts process i on its port; should another program have taken the port meanwhile (a free
   * port is only free when it was looked at), on a new one.
   * @param {number} i
   */
  async restart(i) {
    for (let attempt = 1; ; attempt++) {
      try {
        this.processes[i] = await startServe({ ...this.options, port: this.ports[i] });
        return;
      } catch (err) {
        if (attempt === 3 || !/is in use/.test(String(err))) throw err;
        this.ports[i] = await freePort();
      }
    }
  }

  /** SIGKILL process i (in the middle of whatever it does), then start it again on its port. */
  async killAndRestart(i) {
    const p = this.processes[i];
    if (!p) return;
    this.processes[i] = null;
    p.child.kill("SIGKILL");
    this.kills++;
    await p.exit;
    await this.restart(i);
  }

  async stop() {
    const running = this.processes.filter((p) => p !== null);
    this.processes = [];
    await Promise.all(
      running.map((p) => {
        p.child.kill("SIGKILL");
        return p.exit;
      }),
    );
  }
}

/** Why a message is sent again: the client did not get its answer, and nothing else was wrong. */
const RETRY_CODES = new Set(["run_lost", "stopped", "lease_lost", "thread_busy", "shutting_down"]);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pick = (xs) => xs[Math.floor(Math.random() * xs.length)];

/**
 * Sends one message until it is answered: the run's event stream read to its end. Returns the
 * committed turn's number, the time from the first send to the answer, and the number of sends;
 * `retries` counts why messages were sent again.
 * @param {() => string[]} urls
 * @param {string} thread @param {string} text @param {string} messageId
 * @param {Record<string, number>} [retries]
 * @returns {Promise<{ turn: number, ms: number, sends: number }>}
 */
export async function sendMessage(urls, thread, text, messageId, retries = {}) {
  const start = performance.now();
  for (let sends = 1; ; sends++) {
    const url = pick(urls());
    let retry;
    try {
      const res = await fetch(`${url}/api/threads/${encodeURIComponent(thread)}/runs`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ message: text, messageId }),
      });
      if (res.status === 200) {
        const end = lastEvent(await res.text());
        if (end?.type === "run-finish") return { turn: end.turn, ms: performance.now() - start, sends };
        // A stream cut short (its process killed) ends without an end event: send again.
        if (end && !(end.type === "run-error" && RETRY_CODES.has(end.code)))
          throw new Error(`${thread} ${messageId}: ${JSON.stringify(end)}`);
        retry = end ? end.code : "cut";
      } else {
        const body = await res.json().catch(() => null);
        const code = body?.error?.code;
        if (!RETRY_CODES.has(code))
          throw new Error(`${thread} ${messageId}: HTTP ${res.status} ${JSON.stringify(body)}`);
        retry = code;
      }
    } catch (err) {
      // Refused or cut connections (a killed process) are retried; what the server said is not.
      if (!(err instanceof TypeError)) throw err;
      retry = "connection";
    }
    retries[retry] = (retries[retry] ?? 0) + 1;
    if (sends >= 400) throw new Error(`${thread} ${messageId}: not answered after ${sends} sends (last: ${retry})`);
    await sleep(retry === "thread_busy" ? 50 + Math.random() * 150 : 10 + Math.random() * 40);
  }
}

/** The last event of a run event stream's text (null when it has none). */
function lastEvent(text) {
  const data = text
    .split("\n")
    .filter((l) => l.startsWith("data: "))
    .at(-1);
  return data === undefined ? null : JSON.parse(data.slice("data: ".length)).event;
}

/** The text and id of a thread's message i. */
export const message = (thread, i) => ({ text: `${thread} says ${i}`, id: `${thread}-m${i}` });

/**
 * `threads` conversations at once, each sending `turns` messages one after the other, each to a
 * process chosen at random. Returns the per-message latencies (ms, retries included) and sends.
 * @param {() => string[]} urls @param {{ threads: number, turns: number, prefix: string }} o
 */
export async function runLoad(urls, { threads, turns, prefix }) {
  const latencies = [];
  /** @type {Record<string, number>} */
  const retries = {};
  let sends = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: threads }, async (_, t) => {
      const thread = `${prefix}-${t}`;
      for (let i = 0; i < turns; i++) {
        const m = message(thread, i);
        const answered = await sendMessage(urls, thread, m.text, m.id, retries);
        // A new thread's first message also runs the agent's opening turn: it is turn 2.
        if (answered.turn !== i + 2)
          throw new Error(`${thread}: message ${i} made turn ${answered.turn}, not ${i + 2}`);
        latencies.push(answered.ms);
        sends += answered.sends;
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  return {
    messages: threads * turns,
    seconds,
    perSecond: (threads * turns) / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    sends,
    retries,
  };
}

/** @param {number[]} xs @param {number} p */
export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

/**
 * What the store holds of each thread against what was sent: `lost` messages with no turn,
 * `duplicated` ones with more than one, `outOfOrder` threads whose turns are not the opening then
 * the messages in the order sent, `other` turns that are none of these (interrupted ones).
 * @param {import('../../../store/dist/index.js').Store} store @param {{ threads: number, turns: number, prefix: string }} o
 */
export async function audit(store, { threads, turns, prefix }) {
  const found = { threads: 0, turns: 0, lost: 0, duplicated: 0, outOfOrder: 0, other: 0 };
  for (let t = 0; t < threads; t++) {
    const thread = `${prefix}-${t}`;
    const held = await store.turns(thread).catch(() => []);
    found.threads++;
    found.turns += held.length;
    const sent = Array.from({ length: turns }, (_, i) => message(thread, i));
    for (const m of sent) {
      const n = held.filter((turn) => turn.messageId === m.id).length;
      if (n === 0) found.lost++;
      if (n > 1) found.duplicated++;
    }
    found.other += held.filter((turn) => turn.status !== "ok").length;
    const expected = [null, ...sent.map((m) => m.text)];
    const seqsInOrder = held.every((turn, i) => turn.seq === i + 1);
    if (!seqsInOrder || held.length !== expected.length || held.some((turn, i) => turn.user !== expected[i]))
      found.outOfOrder++;
  }
  return found;
}

/** One line of figures. */
export function describeLoad(label, r) {
  const why = Object.entries(r.retries)
    .sort((a, b) => b[1] - a[1])
    .map(([reason, n]) => `${reason} ${n}`)
    .join(", ");
  return `${label}: ${r.messages} messages in ${r.seconds.toFixed(1)} s = ${r.perSecond.toFixed(0)} turns/s; latency p50 ${r.p50.toFixed(0)} ms, p99 ${r.p99.toFixed(0)} ms; ${r.sends - r.messages} sent again${why ? ` (${why})` : ""}`;
}

/**
 * Kills a process chosen at random every `everyMs` (SIGKILL, mid-turn) and starts it again, until
 * the function returned is called (it resolves once the last restart is done).
 * @param {Cluster} cluster @param {number} everyMs
 */
export function killEvery(cluster, everyMs) {
  let stopped = false;
  let wake = () => {};
  const loop = (async () => {
    while (!stopped) {
      await new Promise((r) => {
        wake = r;
        setTimeout(r, everyMs);
      });
      if (!stopped) await cluster.killAndRestart(Math.floor(Math.random() * cluster.ports.length));
    }
  })();
  return async () => {
    stopped = true;
    wake();
    await loop;
  };
}
