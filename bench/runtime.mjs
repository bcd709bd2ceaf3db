// Framework overhead of the runtime, next to LangGraph.js (and XState 5) running equivalent graphs:
//   1. a `while` loop of three statements run through agent.call (no model): time per iteration;
//      the same loop with the code in a sandbox pool's child process (isolation: "process"): the
//      pool's cost per code node (four evaluations per iteration: the condition and 3 statements);
//   2. a conversation, one chat node answering every turn with an instant model: time per turn
//      around turn 300, each turn including a JSON round trip of the saved state; and the saved
//      state's size against the bytes of the transcript it holds;
//   3. the cost of a turn against the length of the conversation (turns 10 to 3,000) for the
//      runtime, XState 5 and LangGraph.js on the same looping chat, with the state passed back as
//      the object and through JSON; bytes of memory and of deltas; with --chart, a chart of it
//      written to docs/turn-cost.svg (a tracked file: only when asked).
//   4. recursion: a function calling itself n deep through agent.call, time per call at depths
//      1k, 10k and 100k (the depth limit raised): flat when a call and a return cost O(1).
//
//   npm run build && node bench/runtime.mjs [turns, default 300] [--chart]
//   node bench/runtime.mjs --loop     (part 1's loop alone, in seconds)
import { Agent, applyDelta } from "../runtime/dist/index.js";
import { Annotation, END, MemorySaver, START, StateGraph } from "@langchain/langgraph";
import { assign, createActor, fromPromise, setup, waitFor } from "xstate";
import { drawChart } from "./turn-cost-chart.mjs";

const TURNS = Number(process.argv.slice(2).find((a) => !a.startsWith("--")) ?? 300);
const CHART = process.argv.includes("--chart");
const WINDOW = 20;
const user = (i) => `Here is user message ${i}: could you explain the next step once more, please?`;
const answer = (i) =>
  `Of course. Step ${i} works like this: take the numerator, then the denominator, and compare the two carefully.`;

// ---- 1. while loop through agent.call ------------------------------------------------------

const loopGraph = {
  format: "autograms-graph",
  version: 1,
  agent: "Loop",
  start: "main",
  globals: {},
  functions: { loop: { kind: "local_function", params: ["n"], entry: "loop" } },
  nodes: [
    { name: "main", action: "transition", transitions: ["quit"] },
    { name: "loop", action: "code", instruction: "let i = 0", transitions: ["loop.init"] },
    { name: "loop.init", action: "code", instruction: "let total = 0", transitions: ["loop.while"] },
    { name: "loop.while", action: "transition", transitions: ["loop.while.*"] },
    { name: "loop.while.a", action: "transition", boolean_condition: "i < n", transitions: ["loop.s1"] },
    { name: "loop.while.b", action: "transition", transitions: ["return total"] },
    { name: "loop.s1", action: "code", instruction: "let square = i * i", transitions: ["loop.s2"] },
    { name: "loop.s2", action: "code", instruction: "total += square", transitions: ["loop.s3"] },
    { name: "loop.s3", action: "code", instruction: "i++", transitions: ["loop.while"] },
  ],
};
const expectedTotal = (n) => ((n - 1) * n * (2 * n - 1)) / 6;

const noModel = {
  complete: async () => {
    throw new Error("no model in this benchmark");
  },
  choose: async () => {
    throw new Error("no model in this benchmark");
  },
};

/** Best of `runs` timings of `run(n)`, in µs per iteration (the machine may be busy with other work). */
async function best(runs, n, run) {
  let min = Infinity;
  for (let k = 0; k < runs; k++) {
    const start = performance.now();
    await run(n);
    min = Math.min(min, ((performance.now() - start) * 1000) / n);
  }
  return min;
}

async function autogramsLoop(n, isolation = "in-process") {
  const agent = new Agent(loopGraph, { model: noModel, isolation });
  await agent.call("loop", [Math.min(n, 1000)]);
  const micros = await best(5, n, async (count) => {
    const total = await agent.call("loop", [count]);
    if (total !== expectedTotal(count)) throw new Error(`loop total ${total}, expected ${expectedTotal(count)}`);
  });
  await agent.close();
  return micros;
}

async function langgraphLoop(n) {
  const State = Annotation.Root({
    n: Annotation(),
    i: Annotation(),
    total: Annotation(),
    square: Annotation(),
  });
  const app = new StateGraph(State)
    .addNode("s1", (s) => ({ square: s.i * s.i }))
    .addNode("s2", (s) => ({ total: s.total + s.square }))
    .addNode("s3", (s) => ({ i: s.i + 1 }))
    .addConditionalEdges(START, (s) => (s.i < s.n ? "s1" : END))
    .addEdge("s1", "s2")
    .addEdge("s2", "s3")
    .addConditionalEdges("s3", (s) => (s.i < s.n ? "s1" : END))
    .compile();
  const run = async (count) => {
    const out = await app.invoke({ n: count, i: 0, total: 0, square: 0 }, { recursionLimit: count * 3 + 10 });
    if (out.total !== expectedTotal(count))
      throw new Error(`langgraph total ${out.total}, expected ${expectedTotal(count)}`);
  };
  await run(100);
  return best(2, n, run);
}

// ---- 2. a conversation --------------------------------------------------------------------

const chatGraph = {
  format: "autograms-graph",
  version: 1,
  agent: "Chat",
  globals: {},
  functions: {},
  nodes: [{ name: "talk", action: "chat", instruction: "Answer the user's question.", transitions: ["talk"] }],
};

async function autogramsConversation(turns) {
  let i = 0;
  const model = { complete: async () => answer(i), choose: async () => 0 };
  const agent = new Agent(chatGraph, { model });
  let saved;
  let transcript = 0;
  let size = 0;
  const times = [];
  for (i = 0; i < turns + WINDOW / 2; i++) {
    const start = performance.now();
    const r = await agent.reply(user(i), saved && JSON.parse(saved));
    saved = JSON.stringify(r.memory);
    times.push(performance.now() - start);
    if (i < turns) transcript += Buffer.byteLength(user(i)) + Buffer.byteLength(r.reply);
    if (i === turns - 1) size = Buffer.byteLength(saved);
  }
  return { msPerTurn: median(times.slice(turns - WINDOW / 2)), ratio: size / transcript, size, transcript };
}

async function langgraphConversation(turns) {
  const State = Annotation.Root({
    messages: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  const saver = new MemorySaver();
  const app = new StateGraph(State)
    .addNode("talk", (s) => ({ messages: [{ role: "assistant", content: answer(s.messages.length / 2 - 0.5) }] }))
    .addEdge(START, "talk")
    .addEdge("talk", END)
    .compile({ checkpointer: saver });
  const config = { configurable: { thread_id: "bench" } };
  const times = [];
  let transcript = 0;
  let size = 0;
  for (let i = 0; i < turns + WINDOW / 2; i++) {
    const start = performance.now();
    const out = await app.invoke({ messages: [{ role: "user", content: user(i) }] }, config);
    const state = await app.getState(config);
    JSON.parse(JSON.stringify(state.values));
    times.push(performance.now() - start);
    if (i < turns) transcript += Buffer.byteLength(user(i)) + Buffer.byteLength(out.messages.at(-1).content);
    if (i === turns - 1) size = storedBytes(saver);
  }
  return { msPerTurn: median(times.slice(turns - WINDOW / 2)), ratio: size / transcript, size, transcript };
}

/** Bytes MemorySaver holds: every checkpoint and every pending write. */
function storedBytes(saver) {
  let bytes = 0;
  const add = (v) => {
    if (v instanceof Uint8Array) bytes += v.byteLength;
    else if (typeof v === "string") bytes += Buffer.byteLength(v);
    else if (Array.isArray(v)) v.forEach(add);
    else if (v && typeof v === "object") Object.values(v).forEach(add);
  };
  add(saver.storage);
  add(saver.writes);
  return bytes;
}

// ---- 3. recursion ---------------------------------------------------------------------------

const depthGraph = {
  format: "autograms-graph",
  version: 1,
  agent: "Depth",
  start: "main",
  globals: {},
  functions: { depth: { kind: "local_function", params: ["n"], entry: "depth" } },
  nodes: [
    { name: "main", action: "transition", transitions: ["quit"] },
    { name: "depth", action: "transition", transitions: ["depth.*"] },
    { name: "depth.a", action: "transition", boolean_condition: "n <= 0", transitions: ["return 0"] },
    {
      name: "depth.b",
      action: "local_function",
      instruction: "depth(n - 1)",
      assign: "r",
      transitions: ["return r + 1"],
    },
  ],
};

/** µs per call of depth(n), n calls deep, best of a few runs. */
async function recursion(n) {
  const agent = new Agent(depthGraph, { model: noModel, limits: { maxCallDepth: 200_000 } });
  await agent.call("depth", [1000]);
  return best(n >= 100_000 ? 2 : 5, n, async (count) => {
    const value = await agent.call("depth", [count]);
    if (value !== count) throw new Error(`depth(${count}) returned ${value}`);
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const iterations = 20_000;
if (process.argv.includes("--loop")) {
  // The loop alone, in seconds: CPU time (steadier than the wall clock on a busy machine), best of
  // 15 runs of 20,000 iterations.
  const agent = new Agent(loopGraph, { model: noModel });
  await agent.call("loop", [1000]);
  let min = Infinity;
  for (let k = 0; k < 15; k++) {
    const start = process.cpuUsage();
    await agent.call("loop", [iterations]);
    const used = process.cpuUsage(start);
    min = Math.min(min, (used.user + used.system) / iterations);
  }
  console.log(`while loop, 3 statements, through agent.call: ${min.toFixed(2)} µs of CPU per iteration`);
  process.exit(0);
}
const ours = {
  loop: await autogramsLoop(iterations),
  isolated: await autogramsLoop(500, "process"),
  chat: await autogramsConversation(TURNS),
};
const theirs = { loop: await langgraphLoop(1_000), chat: await langgraphConversation(TURNS) };

const fmt = (x, digits = 1) => x.toFixed(digits);
console.log(`while loop, 3 statements, through agent.call (µs per iteration; target <= 30)`);
console.log(`  autograms-ts   ${fmt(ours.loop)}`);
console.log(`  LangGraph.js   ${fmt(theirs.loop)}`);
console.log(
  `the same loop, code in a sandbox pool's child process (isolation: "process"; 4 evaluations per iteration)`,
);
console.log(`  autograms-ts   ${fmt(ours.isolated)} µs per iteration, ${fmt(ours.isolated / 4)} µs per evaluation`);
console.log(
  `conversation, turn ${TURNS} incl. JSON round trip of the state (ms per turn, median of ${WINDOW}; target <= 2)`,
);
console.log(`  autograms-ts   ${fmt(ours.chat.msPerTurn, 3)}`);
console.log(`  LangGraph.js   ${fmt(theirs.chat.msPerTurn, 3)}`);
const depths = [1_000, 10_000, 100_000];
const perCall = [];
for (const n of depths) perCall.push(await recursion(n));
console.log(
  `recursion through agent.call (µs per call at depth ${depths.map((n) => `${n / 1000}k`).join(" / ")}; flat = O(1) per call)`,
);
console.log(`  autograms-ts   ${perCall.map((x) => fmt(x)).join(" / ")}`);
console.log(`saved state after ${TURNS} turns / transcript bytes (target <= 2.5)`);
console.log(`  autograms-ts   ${fmt(ours.chat.ratio, 2)}  (${ours.chat.size} / ${ours.chat.transcript} bytes)`);
console.log(
  `  LangGraph.js   ${fmt(theirs.chat.ratio, 2)}  (${theirs.chat.size} / ${theirs.chat.transcript} bytes, MemorySaver)`,
);

// ---- 3. the cost of a turn against the length of the conversation ----------------------------
//
// At each length N the state after N - 1 turns is kept, and turn N is run from it again and again
// (the median of the CPU time each run took is reported: all systems run without waiting, and CPU
// time stays comparable on a machine busy with other work): with the state passed back as the object ("object"), and with the
// caller's JSON round trip around it ("JSON": parse the saved text, run the turn, stringify the
// result). The runtime's own share in JSON mode is the JSON turn less the round trip alone of the
// same memory. LangGraph keeps its state in MemorySaver (its JSON mode adds a round trip of the
// state's values); its thread is filled to N - 1 turns with updateState, then turns N, N + 1, ...
// are measured, as one cannot run the same turn twice on one thread.

const POINTS = [10, 30, 100, 300, 1000, 3000];
const REPEAT = { autograms: 41, xstate: 21, langgraph: 5 };

/** CPU time of this process in ms: unlike the wall clock, it does not count the time other work on a busy machine takes. */
function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

async function medianOf(times, run) {
  const out = [];
  for (let k = 0; k < times; k++) {
    const start = cpuMs();
    await run();
    out.push(cpuMs() - start);
  }
  return median(out);
}

async function autogramsCurve() {
  const model = { complete: async (req) => answer(req.messages.length), choose: async () => 0 };
  const agent = new Agent(chatGraph, { model });
  const rows = [];
  let memory;
  let turn = 0;
  for (const point of POINTS) {
    for (; turn < point - 1; turn++) memory = (await agent.reply(user(turn), memory)).memory;
    const saved = JSON.stringify(memory);
    const object = await medianOf(REPEAT.autograms, () => agent.reply(user(turn), memory));
    let result;
    const json = await medianOf(REPEAT.autograms, async () => {
      result = await agent.reply(user(turn), JSON.parse(saved));
      JSON.stringify(result.memory);
    });
    const after = JSON.stringify(result.memory);
    const roundTrip = await medianOf(REPEAT.autograms, () => JSON.stringify(JSON.parse(after)));
    if (JSON.stringify(applyDelta(JSON.parse(saved), JSON.parse(JSON.stringify(result.delta)))) !== after)
      throw new Error("applyDelta did not give the reply's memory");
    rows.push({
      turn: point,
      object,
      json,
      roundTrip,
      memoryBytes: Buffer.byteLength(after),
      deltaBytes: Buffer.byteLength(JSON.stringify(result.delta)),
    });
  }
  return rows;
}

const chatMachine = setup({
  actors: { model: fromPromise(async ({ input }) => answer(input.messages.length)) },
}).createMachine({
  id: "chat",
  initial: "waiting",
  context: { messages: [] },
  states: {
    waiting: {
      on: {
        user: {
          target: "answering",
          actions: assign({
            messages: ({ context, event }) => [...context.messages, { role: "user", content: event.text }],
          }),
        },
      },
    },
    answering: {
      invoke: {
        src: "model",
        input: ({ context }) => ({ messages: context.messages }),
        onDone: {
          target: "waiting",
          actions: assign({
            messages: ({ context, event }) => [...context.messages, { role: "assistant", content: event.output }],
          }),
        },
      },
    },
  },
});

/** One XState turn: the actor restored from the persisted snapshot, the user's event, the answer, the new snapshot. */
async function xstateTurn(snapshot, text) {
  const actor = createActor(chatMachine, snapshot ? { snapshot } : undefined);
  actor.start();
  actor.send({ type: "user", text });
  await waitFor(actor, (s) => s.matches("waiting"));
  const out = actor.getPersistedSnapshot();
  actor.stop();
  return out;
}

async function xstateCurve() {
  const rows = [];
  let snapshot;
  let turn = 0;
  for (const point of POINTS) {
    for (; turn < point - 1; turn++) snapshot = await xstateTurn(snapshot, user(turn));
    const saved = JSON.stringify(snapshot);
    const object = await medianOf(REPEAT.xstate, () => xstateTurn(snapshot, user(turn)));
    let result;
    const json = await medianOf(REPEAT.xstate, async () => {
      result = await xstateTurn(JSON.parse(saved), user(turn));
      JSON.stringify(result);
    });
    if (result.context.messages.length !== 2 * point)
      throw new Error(`xstate holds ${result.context.messages.length} messages at turn ${point}`);
    rows.push({ turn: point, object, json, memoryBytes: Buffer.byteLength(JSON.stringify(result)) });
  }
  return rows;
}

async function langgraphCurve() {
  const State = Annotation.Root({ messages: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }) });
  const app = new StateGraph(State)
    .addNode("talk", (s) => ({ messages: [{ role: "assistant", content: answer(s.messages.length) }] }))
    .addEdge(START, "talk")
    .addEdge("talk", END)
    .compile({ checkpointer: new MemorySaver() });
  const rows = [];
  for (const point of POINTS) {
    const config = { configurable: { thread_id: `turn-${point}` } };
    const history = [];
    for (let i = 0; i < point - 1; i++)
      history.push({ role: "user", content: user(i) }, { role: "assistant", content: answer(2 * i + 1) });
    if (history.length) await app.updateState(config, { messages: history }, "talk");
    let turn = point - 1;
    const object = await medianOf(REPEAT.langgraph, () =>
      app.invoke({ messages: [{ role: "user", content: user(turn++) }] }, config),
    );
    const json = await medianOf(REPEAT.langgraph, async () => {
      await app.invoke({ messages: [{ role: "user", content: user(turn++) }] }, config);
      JSON.parse(JSON.stringify((await app.getState(config)).values));
    });
    rows.push({ turn: point, object, json });
  }
  return rows;
}

async function turnCosts() {
  const autograms = await autogramsCurve();
  const xstate = await xstateCurve();
  const langgraph = await langgraphCurve();
  if (CHART) drawChart(new URL("../docs/turn-cost.svg", import.meta.url), POINTS, { autograms, xstate, langgraph });
  return { autograms, xstate, langgraph };
}

const curve = await turnCosts();
const ms = (x) => x.toFixed(3).padStart(8);
const ratio = (a, b) => `${(a / b).toFixed(2)}x`.padStart(7);
console.log(`\ncost of a turn against conversation length (ms per turn, median; object / JSON round trip included)`);
console.log(
  `   turn | autograms-ts        | XState 5            | LangGraph.js        | ours/XState    | ours/LangGraph`,
);
for (let i = 0; i < POINTS.length; i++) {
  const [a, x, l] = [curve.autograms[i], curve.xstate[i], curve.langgraph[i]];
  console.log(
    `${String(a.turn).padStart(7)} | ${ms(a.object)} / ${ms(a.json)} | ${ms(x.object)} / ${ms(x.json)} | ${ms(l.object)} / ${ms(l.json)} | ${ratio(a.object, x.object)} ${ratio(a.json, x.json)} | ${ratio(a.object, l.object)} ${ratio(a.json, l.json)}`,
  );
}
const at = (t) => curve.autograms.find((r) => r.turn === t);
console.log(
  `autograms-ts, flatness: turn 3000 / turn 30 in object mode ${ratio(at(3000).object, at(30).object)} (target <= 1.5x)`,
);
console.log(
  `autograms-ts, JSON mode: the runtime's own share (turn less the caller's round trip of the same memory), ms; whole turn / round trip`,
);
for (const r of curve.autograms) {
  console.log(
    `${String(r.turn).padStart(7)} | own ${ms(r.json - r.roundTrip)} | round trip ${ms(r.roundTrip)} | whole / round trip ${ratio(r.json, r.roundTrip)}${r.turn === 1000 ? " (target <= 2x)" : ""}`,
  );
}
console.log(`bytes per conversation length: autograms-ts memory / delta of one turn; XState persisted snapshot`);
for (let i = 0; i < POINTS.length; i++) {
  const [a, x] = [curve.autograms[i], curve.xstate[i]];
  console.log(
    `${String(a.turn).padStart(7)} | ${String(a.memoryBytes).padStart(8)} / ${String(a.deltaBytes).padStart(4)} | ${String(x.memoryBytes).padStart(8)}`,
  );
}
console.log(CHART ? "chart: docs/turn-cost.svg" : "chart not drawn (--chart writes docs/turn-cost.svg)");
