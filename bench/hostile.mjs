// One conversation against the others, on one `autograms serve` process (the real command):
//
//  1. latency under a hostile thread: 50 threads at once, each sending 6 messages one after the
//     other (the agent computes 200 loop steps, then answers), timed per turn (request to the end
//     of its run stream); once alone, once while one more thread sends "loop" again and again (an
//     endless loop, stopped each time by its time budget). p50 / p99 of both, and their ratio;
//  2. throughput by worker count: the same load with --workers 1, 2 and 4 (0: turns in the
//     server's own thread), turns/s and the process's CPU use (user + system time over wall time;
//     200% is two cores).
//
//   npm run build && node bench/hostile.mjs [threads, default 50] [messages per thread, default 6]
//
// The agent is test/server/fixtures/hostile/agent.ts, on a temporary SQLite file.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const AGENT = join(root, "test/server/fixtures/hostile/agent.ts");
const THREADS = Number(process.argv[2] ?? 50);
const MESSAGES = Number(process.argv[3] ?? 6);
const TIME_BUDGET_MS = 1000;

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

function serve(dir, workers, name = `threads-${workers}`) {
  const child = spawn(
    process.execPath,
    [
      join(root, "cli/bin/autograms.js"),
      "serve",
      AGENT,
      "--offline",
      "--port",
      "0",
      "--no-playground",
      "--store",
      `sqlite:${join(dir, `${name}.db`)}`,
      "--workers",
      String(workers),
      "--turn-time-ms",
      String(TIME_BUDGET_MS),
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  let err = "";
  child.stderr.on("data", (c) => (err += c));
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (c) => {
      out += c;
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    });
    child.on("exit", (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
}

let sent = 0;
/**
 * One turn: its run stream read to the end; the last event's type. A request on a keep-alive
 * connection the server closed meanwhile is sent again with the same message id (one turn).
 */
async function turn(url, thread, message) {
  const body = JSON.stringify({ message, messageId: `m-${++sent}` });
  const send = () =>
    fetch(`${url}/api/threads/${thread}/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
  const res = await send().catch((err) => {
    if (err?.cause?.code !== "UND_ERR_SOCKET") throw err;
    return send();
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${res.status} ${text}`);
  // The type of the last event: run-finish, or run-error and its code.
  const last = text.slice(text.lastIndexOf("\nevent: ") + 1);
  return last.startsWith("event: run-finish") ? "run-finish" : `run-error ${/"code":"(\w+)"/.exec(last)?.[1]}`;
}

/** CPU seconds (user + system) the process has used so far. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Turns that did not finish, by why (a loaded machine can make a lease lapse: `lease_lost`). */
const failed = new Map();

async function load(url, prefix) {
  const latencies = [];
  await Promise.all(
    Array.from({ length: THREADS }, async (_, t) => {
      await turn(url, `${prefix}-${t}`, null);
      for (let m = 0; m < MESSAGES; m++) {
        const start = performance.now();
        const end = await turn(url, `${prefix}-${t}`, "work");
        latencies.push(performance.now() - start);
        if (end !== "run-finish") failed.set(end, (failed.get(end) ?? 0) + 1);
      }
    }),
  );
  return latencies;
}

const dir = mkdtempSync(join(tmpdir(), "autograms-bench-hostile-"));
try {
  const { child, url } = await serve(dir, 2, "hostile");
  await load(url, "warm");
  const alone = await load(url, "alone");
  let hostile = true;
  let stopped = 0;
  await turn(url, "hostile", null);
  const loops = (async () => {
    while (hostile) {
      const end = await turn(url, "hostile", "loop");
      if (end === "run-error time_budget") stopped++;
      else throw new Error(`the endless loop ended with ${end}`);
    }
  })();
  await new Promise((r) => setTimeout(r, 200));
  const beside = await load(url, "beside");
  hostile = false;
  await loops;
  child.kill("SIGTERM");
  const line = (name, xs) =>
    `${name}: p50 ${percentile(xs, 50).toFixed(0)} ms, p99 ${percentile(xs, 99).toFixed(0)} ms (${xs.length} turns)`;
  console.log(`1. ${THREADS} threads x ${MESSAGES} turns, 2 workers, time budget ${TIME_BUDGET_MS} ms`);
  console.log(`   ${line("alone", alone)}`);
  console.log(`   ${line("beside an endless loop", beside)}; the loop was stopped by its budget ${stopped} times`);
  console.log(`   p99 ratio: ${(percentile(beside, 99) / percentile(alone, 99)).toFixed(2)}`);

  console.log(`2. throughput, ${THREADS} threads x ${MESSAGES} turns`);
  for (const workers of [0, 1, 2, 4]) {
    const { child, url } = await serve(dir, workers);
    await load(url, "warm");
    const cpu = cpuSeconds(child.pid);
    const start = performance.now();
    const latencies = await load(url, "run");
    const wall = (performance.now() - start) / 1000;
    const used = cpuSeconds(child.pid) - cpu;
    child.kill("SIGTERM");
    await new Promise((r) => child.on("exit", r));
    console.log(
      `   --workers ${workers}: ${(latencies.length / wall).toFixed(0)} turns/s, p99 ${percentile(latencies, 99).toFixed(0)} ms, CPU ${Math.round((100 * used) / wall)}%`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (failed.size) console.log(`turns that did not finish: ${[...failed].map(([why, n]) => `${n} ${why}`).join(", ")}`);
