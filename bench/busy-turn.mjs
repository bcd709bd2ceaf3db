// The runtime's own cost of a CPU-heavy turn, in one process, without a server: the busy-loop
// agent's turn (bench/agents/busy-loop.ts, --steps loop steps, four trace steps each) played the way
// a server's worker plays it (each step's event serialized as it comes, an AbortSignal, a pause
// hook that lets the event loop run now and then), and played bare (no trace, no signal, no pause).
// Per turn: the CPU of the main thread and of the process's other threads (V8's garbage-collection
// helpers; Linux /proc), the time the thread spent stopped for garbage collection and how many
// collections (perf_hooks' gc entries).
//
// Two pause hooks: `async` makes a promise for every node it is called at, as an `async` function
// does; `void` returns nothing unless the run is to let the event loop run (the hook's contract
// allows it: the run then goes on without waiting).
//
//   npm run build && node bench/busy-turn.mjs [--steps 10000] [--turns 20]
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { PerformanceObserver, constants } from "node:perf_hooks";
import { loadavg } from "node:os";

const root = fileURLToPath(new URL("..", import.meta.url));
const { Agent } = await import(join(root, "runtime/dist/index.js"));
const { compile } = await import(join(root, "compiler/dist/index.js"));

const { values: flags } = parseArgs({
  options: { steps: { type: "string", default: "10000" }, turns: { type: "string", default: "20" } },
});
const STEPS = Number(flags.steps);
const TURNS = Number(flags.turns);
for (const [name, n] of [
  ["steps", STEPS],
  ["turns", TURNS],
]) {
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} takes a whole number, at least 1`);
}

const source = join(root, "bench/agents/busy-loop.ts");
const { graph, diagnostics } = compile(readFileSync(source, "utf8"), { fileName: source });
if (!graph) throw new Error(`busy-loop.ts did not compile: ${JSON.stringify(diagnostics)}`);
const noModel = { complete: async () => "", choose: async () => 0 };
const agent = new Agent(graph, { model: noModel });
const opened = await agent.reply("", undefined);

/** Characters of trace JSON made, and the traced turns that made them (warm-up turns included). */
let traced = 0;
let tracedTurns = 0;

/** Nodes between two yields to the event loop, as a server's turn lets the turns beside it run. */
const SLICE = 2000;

function options(mode) {
  if (mode === "bare") return {};
  tracedTurns++;
  let entered = 0;
  const yieldNow = () => new Promise((resolve) => setImmediate(resolve));
  const pause =
    mode === "async"
      ? async () => {
          if (++entered % SLICE === 0) await yieldNow();
        }
      : () => (++entered % SLICE === 0 ? yieldNow() : undefined);
  return {
    trace: (event) => {
      traced += JSON.stringify(event).length;
    },
    pause,
    signal: new AbortController().signal,
  };
}

let gcCount = 0;
let gcMs = 0;
const gcByKind = new Map();
const KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: "minor",
  [constants.NODE_PERFORMANCE_GC_MAJOR]: "major",
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weak callbacks",
};
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gcCount++;
    gcMs += entry.duration;
    const kind = KINDS[entry.detail?.kind] ?? "other";
    gcByKind.set(kind, (gcByKind.get(kind) ?? 0) + 1);
  }
}).observe({ entryTypes: ["gc"] });

/** CPU ms of this process's main thread (Linux), or undefined elsewhere. */
function mainThreadMs() {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime, fields 14 and 15 of stat (12 and 13 after the name), in clock ticks (100 a second).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

async function measure(mode) {
  for (let k = 0; k < 3; k++) await agent.reply(`work ${STEPS}`, opened.memory, options(mode));
  await settle();
  gcCount = 0;
  gcMs = 0;
  gcByKind.clear();
  const main0 = mainThreadMs();
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  for (let k = 0; k < TURNS; k++) {
    const r = await agent.reply(`work ${STEPS}`, opened.memory, options(mode));
    if (!r.reply.startsWith(`Computed ${STEPS} steps`)) throw new Error(`unexpected reply: ${r.reply}`);
  }
  const wall = performance.now() - wall0;
  const cpu = process.cpuUsage(cpu0);
  const main1 = mainThreadMs();
  await settle();
  const total = (cpu.user + cpu.system) / 1000 / TURNS;
  const main = main0 === undefined ? undefined : (main1 - main0) / TURNS;
  return {
    wall: wall / TURNS,
    total,
    main,
    others: main === undefined ? undefined : Math.max(0, total - main),
    gcCount: gcCount / TURNS,
    gcMs: gcMs / TURNS,
    kinds: [...gcByKind].map(([kind, n]) => `${(n / TURNS).toFixed(1)} ${kind}`).join(", "),
  };
}

const fmt = (x) => (x === undefined ? "n/a" : x.toFixed(1));
console.log(
  `The busy-loop agent's turn, ${STEPS} loop steps (${4 * STEPS} trace steps), ${TURNS} turns a row, one process; load average ${loadavg()[0].toFixed(1)}\n`,
);
console.log(
  "| played | wall ms a turn | CPU ms a turn: main thread + other threads | GC pauses a turn (ms, count) | collections by kind |",
);
console.log("|---|---|---|---|---|");
for (const [mode, label] of [
  ["bare", "bare (no trace, signal or pause)"],
  ["async", "as a worker: trace, signal, async pause hook"],
  ["void", "as a worker: trace, signal, pause hook returning nothing between yields"],
]) {
  let r;
  try {
    r = await measure(mode);
  } catch (e) {
    // A runtime before pause hooks could return nothing fails the last row.
    console.log(`| ${label} | failed: ${e.message} | | | |`);
    continue;
  }
  console.log(
    `| ${label} | ${fmt(r.wall)} | ${fmt(r.total)}: ${fmt(r.main)} + ${fmt(r.others)} | ${fmt(r.gcMs)} ms, ${r.gcCount.toFixed(1)} | ${r.kinds} |`,
  );
}
console.log(`\nA traced turn made ${(traced / Math.max(1, tracedTurns) / 1e6).toFixed(1)} MB of trace JSON.`);
