// A chat turn against the length of the conversation when the token budget holds all of it: each
// turn's prompt carries every earlier pair, so reading the conversation back every turn would make
// a turn cost more with each turn. One conversation of --turns turns (object mode: memory passed
// back as the runtime sealed it), a chat node answering every message with an instant model, for
// the default budget (maxInputTokens 3,500: the prompt follows the budget) and for 1,000,000; the
// median time of `agent.reply` over turns 1-100, the middle hundred and the last hundred.
//
//   npm run build && node bench/prompt.mjs [--turns 2000]
import { parseArgs } from "node:util";
import { Agent } from "@autograms/runtime";

const { values } = parseArgs({ options: { turns: { type: "string", default: "2000" } } });
const TURNS = Number(values.turns);
if (!Number.isInteger(TURNS) || TURNS < 300)
  throw new Error(`--turns: a whole number, at least 300, not ${values.turns}`);

const graph = {
  format: "autograms-graph",
  version: 1,
  agent: "Prompt",
  globals: {},
  functions: {},
  nodes: [{ name: "talk", action: "chat", instruction: "Answer the user.", transitions: ["talk"] }],
};
/** The number of past pairs in the last prompt. */
let pairs = 0;
const model = {
  complete: async ({ messages }) => {
    pairs = (messages.length - 1) / 2;
    return `Noted: ${messages.length} messages so far, and a sentence to make the answer ordinary.`;
  },
  choose: async () => 0,
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function blocks(times) {
  const mid = Math.floor(TURNS / 2);
  return [
    ["1-100", times.slice(0, 100)],
    [`${mid - 49}-${mid + 50}`, times.slice(mid - 50, mid + 50)],
    [`${TURNS - 99}-${TURNS}`, times.slice(-100)],
  ].map(([label, xs]) => [label, median(xs)]);
}

console.log(`chat turn, ms (median of each hundred), one conversation of ${TURNS} turns, object mode`);
console.log("| maxInputTokens | pairs in the last prompt | turns | ms a turn | last / first |");
console.log("|---|---|---|---|---|");
for (const budget of [3500, 1_000_000]) {
  const agent = new Agent(graph, { model, config: { maxInputTokens: budget } });
  let memory;
  const times = [];
  for (let i = 1; i <= TURNS; i++) {
    const text = `Here is message ${i}: could you explain the next step once more, please?`;
    const t0 = performance.now();
    memory = (await agent.reply(text, memory)).memory;
    times.push(performance.now() - t0);
  }
  const rows = blocks(times);
  for (const [label, ms] of rows)
    console.log(
      `| ${budget.toLocaleString("en")} | ${pairs} | ${label} | ${ms.toFixed(3)} | ${label === rows.at(-1)[0] ? `${(ms / rows[0][1]).toFixed(2)}x` : ""} |`,
    );
}
