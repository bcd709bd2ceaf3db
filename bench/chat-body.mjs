// What the body useChat sends costs the server, by step, at a thread's first turn and at its 300th
// (the whole conversation before the new message, as bench/serve.mjs's thread section sends it).
//
//  steps, in this process: the body's chunks joined (Buffer.concat), decoded into one string
//     (TextDecoder, as the Node adapter reads a body), and JSON.parse; each timed alone, the
//     median of 15 batches (the process's CPU);
//  server: the built server (bench/support/serve-offline.mjs) sent the same bodies with a last
//     message it refuses once the body is read and checked (400), against a route that reads no
//     body (404): the server's CPU a request (all its threads, Linux's schedstat), the median of
//     5 rounds of --requests requests each.
//
//   npm run build && node bench/chat-body.mjs [--requests 300]
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = fileURLToPath(new URL("..", import.meta.url));
const { values: flags } = parseArgs({ options: { requests: { type: "string", default: "300" } } });
const REQUESTS = Number(flags.requests);
if (!Number.isInteger(REQUESTS) || REQUESTS < 1)
  throw new Error(`--requests takes a whole number, at least 1, not ${flags.requests}`);
const TURNS = [1, 300];
const ROUNDS = 5;

/** A reply as long as the thread section's (51 words). */
const REPLY =
  "You asked: This is message 1 of a long conversation between a user and an agent. Answer the user in a few plain sentences, saying what you understood of the question, what the answer is, and what the user could ask next if they want to know more about it. Done";
const message = (i) => `This is message ${i} of a long conversation between a user and an agent.`;

/** The body of a thread's message `turn`, useChat's default: the conversation, then the new message, of role `role`. */
function bodyAt(turn, role = "user") {
  const messages = [];
  for (let i = 0; i < turn; i++)
    messages.push(
      { id: `long-${i}`, role: "user", parts: [{ type: "text", text: message(i) }] },
      { id: `long-reply-${i}`, role: "assistant", parts: [{ type: "text", text: REPLY }] },
    );
  messages.push({ id: `long-${turn}`, role, parts: [{ type: "text", text: message(turn) }] });
  return JSON.stringify({ id: "long", messages, trigger: "submit-message" });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The process's CPU (ms) a call of `f`, median of 15 batches of `reps` after one not measured. */
function cpuOf(f, reps) {
  for (let i = 0; i < reps; i++) f();
  const batches = [];
  for (let k = 0; k < 15; k++) {
    const start = process.cpuUsage();
    for (let i = 0; i < reps; i++) f();
    const used = process.cpuUsage(start);
    batches.push((used.user + used.system) / 1000 / reps);
  }
  return median(batches);
}

function steps() {
  const decoder = new TextDecoder();
  const rows = TURNS.map((turn) => {
    const bytes = Buffer.from(bodyAt(turn));
    // As a socket gives them: 64 KiB at a time.
    const chunks = [];
    for (let at = 0; at < bytes.length; at += 65536) chunks.push(Buffer.from(bytes.subarray(at, at + 65536)));
    const text = decoder.decode(bytes);
    const reps = turn > 100 ? 100 : 2000;
    return {
      turn,
      bytes: bytes.length,
      concat: cpuOf(() => Buffer.concat(chunks), reps),
      decode: cpuOf(() => decoder.decode(bytes), reps),
      parse: cpuOf(() => JSON.parse(text), reps),
    };
  });
  console.log("\nEach step alone, CPU ms a body (median of 15 batches)\n");
  console.log("| turn | body | Buffer.concat | decode (one string) | JSON.parse |\n|---|---|---|---|---|");
  for (const r of rows)
    console.log(
      `| ${r.turn} | ${(r.bytes / 1024).toFixed(1)} KiB | ${r.concat.toFixed(3)} | ${r.decode.toFixed(3)} | ${r.parse.toFixed(3)} |`,
    );
}

/** The CPU seconds all of a process's threads ran so far (Linux's schedstat). */
function runSeconds(pid) {
  let seconds = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      seconds += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]) / 1e9;
    } catch {
      // The thread exited meanwhile.
    }
  }
  return seconds;
}

async function server() {
  const dir = mkdtempSync(join(tmpdir(), "autograms-bench-chat-body-"));
  const graphFile = join(dir, "agent.json");
  writeFileSync(
    graphFile,
    JSON.stringify({
      format: "autograms-graph",
      version: 1,
      agent: "Bench",
      globals: {},
      functions: {},
      nodes: [{ name: "talk", action: "chat", instruction: "Answer the user.", transitions: ["talk"] }],
    }),
  );
  const child = spawn(
    process.execPath,
    [join(root, "bench/support/serve-offline.mjs"), graphFile, `sqlite:${join(dir, "chat-body.db")}`, "0"],
    { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
  );
  try {
    const url = await new Promise((resolve, reject) => {
      child.stdout.setEncoding("utf8").on("data", (line) => {
        const found = /listening on (\S+)/.exec(line);
        if (found) resolve(found[1]);
      });
      child.once("exit", (code) => reject(new Error(`the server exited ${code}`)));
    });
    // A last message of no role the route knows: refused (400) once the body is read and checked.
    const kinds = TURNS.flatMap((turn) => [
      {
        turn,
        path: "/api/chat",
        status: 400,
        body: bodyAt(turn, "robot"),
        label: "POST /api/chat (read, checked, refused)",
      },
      { turn, path: "/healthz", status: 404, body: bodyAt(turn, "robot"), label: "a route that reads no body" },
    ]);
    const send = async (kind, n) => {
      for (let i = 0; i < n; i++) {
        const res = await fetch(url + kind.path, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: kind.body,
        });
        await res.arrayBuffer();
        if (res.status !== kind.status) throw new Error(`${kind.path}: ${res.status}, not ${kind.status}`);
      }
    };
    for (const kind of kinds) await send(kind, REQUESTS);
    const cpu = kinds.map(() => []);
    for (let r = 0; r < ROUNDS; r++)
      for (const [k, kind] of kinds.entries()) {
        const before = runSeconds(child.pid);
        await send(kind, REQUESTS);
        cpu[k].push(((runSeconds(child.pid) - before) * 1000) / REQUESTS);
      }
    console.log(
      `\nThe server's CPU a request, ms (median of ${ROUNDS} rounds of ${REQUESTS}; load average ${loadavg()[0].toFixed(1)})\n`,
    );
    console.log(`| | turn ${TURNS[0]} | turn ${TURNS[1]} | difference |\n|---|---|---|---|`);
    for (const label of new Set(kinds.map((k) => k.label))) {
      const [first, last] = kinds.flatMap((k, i) => (k.label === label ? [median(cpu[i])] : []));
      console.log(`| ${label} | ${first.toFixed(2)} | ${last.toFixed(2)} | ${(last - first).toFixed(2)} |`);
    }
  } finally {
    await new Promise((resolve) => {
      child.once("exit", resolve);
      child.kill("SIGTERM");
    });
    rmSync(dir, { recursive: true, force: true });
  }
}

steps();
await server();
