// Framework overhead of the runtime, next to LangGraph.js running equivalent graphs:
//   1. a `while` loop of three statements run through agent.call (no model): time per iteration;
//      the same loop with the code in a sandbox pool's child process (isolation: "process"): the
//      pool's cost per code node (four evaluations per iteration: the condition and 3 statements);
//   2. a conversation, one chat node answering every turn with an instant model: time per turn
//      around turn 300, each turn including a JSON round trip of the saved state; and the saved
//      state's size against the bytes of the transcript it holds.
//
//   npx tsc -b runtime && node bench/runtime.mjs [turns, default 300]
import { Agent } from "../runtime/dist/index.js";
import { Annotation, END, MemorySaver, START, StateGraph } from "@langchain/langgraph";

const TURNS = Number(process.argv[2] ?? 300);
const WINDOW = 20;
const user = (i) => `Here is user message ${i}: could you explain the next step once more, please?`;
const answer = (i) => `Of course. Step ${i} works like this: take the numerator, then the denominator, and compare the two carefully.`;

// ---- 1. while loop through agent.call ------------------------------------------------------

const loopGraph = {
  format: "autograms-graph", version: 1, agent: "Loop", start: "main", globals: {},
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
  complete: async () => { throw new Error("no model in this benchmark"); },
  choose: async () => { throw new Error("no model in this benchmark"); },
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
    n: Annotation(), i: Annotation(), total: Annotation(), square: Annotation(),
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
    if (out.total !== expectedTotal(count)) throw new Error(`langgraph total ${out.total}, expected ${expectedTotal(count)}`);
  };
  await run(100);
  return best(2, n, run);
}

// ---- 2. a conversation --------------------------------------------------------------------

const chatGraph = {
  format: "autograms-graph", version: 1, agent: "Chat", globals: {}, functions: {},
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

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const iterations = 20_000;
const ours = { loop: await autogramsLoop(iterations), isolated: await autogramsLoop(500, "process"), chat: await autogramsConversation(TURNS) };
const theirs = { loop: await langgraphLoop(1_000), chat: await langgraphConversation(TURNS) };

const fmt = (x, digits = 1) => x.toFixed(digits);
console.log(`while loop, 3 statements, through agent.call (µs per iteration; target <= 30)`);
console.log(`  autograms-ts   ${fmt(ours.loop)}`);
console.log(`  LangGraph.js   ${fmt(theirs.loop)}`);
console.log(`the same loop, code in a sandbox pool's child process (isolation: "process"; 4 evaluations per iteration)`);
console.log(`  autograms-ts   ${fmt(ours.isolated)} µs per iteration, ${fmt(ours.isolated / 4)} µs per evaluation`);
console.log(`conversation, turn ${TURNS} incl. JSON round trip of the state (ms per turn, median of ${WINDOW}; target <= 2)`);
console.log(`  autograms-ts   ${fmt(ours.chat.msPerTurn, 3)}`);
console.log(`  LangGraph.js   ${fmt(theirs.chat.msPerTurn, 3)}`);
console.log(`saved state after ${TURNS} turns / transcript bytes (target <= 2.5)`);
console.log(`  autograms-ts   ${fmt(ours.chat.ratio, 2)}  (${ours.chat.size} / ${ours.chat.transcript} bytes)`);
console.log(`  LangGraph.js   ${fmt(theirs.chat.ratio, 2)}  (${theirs.chat.size} / ${theirs.chat.transcript} bytes, MemorySaver)`);
