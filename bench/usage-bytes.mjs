// What keeping the models' token usage costs the store: a sample's whole conversation (its
// conversation.json; default the tutor's, docs/samples.md) played with the offline model, wrapped to report tokens as a provider would
// (input: the prompt's characters / 4, output: the answer's / 4, named "gpt-4o-mini"), and each
// turn's trace measured as the store keeps it (`storedTrace`, JSON), with and without the usage
// the trace events carry. Prints the bytes per turn, the turns' model calls and the difference.
//
//   npm run build && node bench/usage-bytes.mjs [sample, default tutor]
import { readFileSync } from "node:fs";
import { Agent, OfflineModel } from "../runtime/dist/index.js";
import { storedTrace } from "../store/dist/index.js";

const root = new URL(`../samples/${process.argv[2] ?? "tutor"}/`, import.meta.url);
const graph = JSON.parse(readFileSync(new URL("agent.graph.json", root), "utf8"));
const { turns } = JSON.parse(readFileSync(new URL("conversation.json", root), "utf8"));

const offline = new OfflineModel();
const tokens = (text) => Math.max(1, Math.round(text.length / 4));
/** The offline model, reporting tokens as a provider does. */
const reporting = {
  model: "gpt-4o-mini",
  provider: "openai",
  async complete(req) {
    const answer = await offline.complete(req);
    req.onUsage?.({ inputTokens: tokens(req.messages.map((m) => m.content).join("")), outputTokens: tokens(answer) });
    return answer;
  },
  async choose(req) {
    const index = await offline.choose(req);
    req.onUsage?.({ inputTokens: tokens(req.prompt + req.choices.join("")), outputTokens: 1 });
    return index;
  },
};

const agent = new Agent(graph, { model: reporting });
const bytes = (events) => Buffer.byteLength(JSON.stringify(storedTrace(events)));
let memory;
let withUsage = 0;
let without = 0;
let calls = 0;
for (const { user } of turns) {
  const events = [];
  ({ memory } = await agent.reply(user, memory, { trace: (e) => events.push(e) }));
  withUsage += bytes(events);
  calls += events.filter((e) => e.usage).length;
  without += bytes(events.map(({ usage: _usage, ...e }) => e));
}
const n = turns.length;
const per = (b) => Math.round(b / n);
console.log(`turns: ${n}, steps with usage: ${calls} (${(calls / n).toFixed(1)} a turn)`);
console.log(`stored trace, bytes per turn: ${per(without)} without usage, ${per(withUsage)} with`);
console.log(
  `usage costs ${per(withUsage - without)} bytes per turn (${((100 * (withUsage - without)) / without).toFixed(1)}%), ${Math.round((withUsage - without) / calls)} per step`,
);
