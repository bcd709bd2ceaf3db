// What keeping the models' token usage and a thread's model settings costs the store: a sample's
// whole conversation (its conversation.json; default the tutor's, docs/samples.md) played with the
// offline model, wrapped to report tokens as a provider would (input: the prompt's characters / 4,
// output: the answer's / 4, named "gpt-4o-mini") and to take settings, once as the server plays a
// thread without settings and once with { model: "gpt-4o", temperature: 0.7, maxTokens: 300 }
// chosen for it. Each turn's trace is measured as the store keeps it (`storedTrace`), as JSON and
// deflated as its row holds it (`packTurn`): without usage, with it, and with usage and settings.
// Prints the bytes per turn, the turns' model calls and the differences.
//
//   npm run build && node bench/usage-bytes.mjs [sample, default tutor]
import { readFileSync } from "node:fs";
import { Agent, OfflineModel, storedTrace } from "../runtime/dist/index.js";
import { packTurn } from "../store/dist/index.js";

const root = new URL(`../samples/${process.argv[2] ?? "tutor"}/`, import.meta.url);
const graph = JSON.parse(readFileSync(new URL("agent.graph.json", root), "utf8"));
const { turns } = JSON.parse(readFileSync(new URL("conversation.json", root), "utf8"));
const SETTINGS = { model: "gpt-4o", temperature: 0.7, maxTokens: 300 };

const offline = new OfflineModel();
const tokens = (text) => Math.max(1, Math.round(text.length / 4));
/** The offline model, reporting tokens as a provider does, under `model`; settings choose another name. */
const reporting = (model) => ({
  model,
  provider: "openai",
  withSettings: (settings) => reporting(settings.model ?? model),
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
});

/** Each turn's trace events, the conversation played from its start (with `settings` on every turn, if given). */
async function play(settings) {
  const agent = new Agent(graph, { model: reporting("gpt-4o-mini") });
  const traces = [];
  let memory;
  for (const { user } of turns) {
    const events = [];
    ({ memory } = await agent.reply(user, memory, {
      trace: (e) => events.push(e),
      ...(settings && { modelSettings: settings }),
    }));
    traces.push(events);
  }
  return traces;
}

/** Bytes of the turns' stored traces: as JSON, and deflated as the store's row keeps them. */
function measure(traces, keep = (e) => e) {
  let json = 0;
  let packed = 0;
  for (const events of traces) {
    const stored = storedTrace(events.map(keep));
    json += Buffer.byteLength(JSON.stringify(stored));
    packed += packTurn(stored, null).trace.byteLength;
  }
  return { json, packed };
}

const plain = await play();
const chosen = await play(SETTINGS);
const n = turns.length;
const calls = plain.flat().filter((e) => e.usage).length;
const rows = [
  ["without usage", measure(plain, ({ usage: _usage, ...e }) => e)],
  ["with usage", measure(plain)],
  ["with usage and settings", measure(chosen)],
];
const per = (b) => Math.round(b / n);
console.log(`${graph.agent}: ${n} turns, steps that called the model: ${calls} (${(calls / n).toFixed(1)} a turn)`);
console.log("stored trace, bytes per turn: JSON / deflated (as the turn's row keeps it)");
for (const [name, b] of rows) console.log(`  ${name}: ${per(b.json)} / ${per(b.packed)}`);
const [without, usage, both] = rows.map(([, b]) => b);
const more = (a, b, key) => `${per(b[key] - a[key])} (${((100 * (b[key] - a[key])) / a[key]).toFixed(1)}%)`;
console.log(
  `usage costs ${more(without, usage, "json")} bytes per turn as JSON, ${more(without, usage, "packed")} deflated`,
);
console.log(`settings cost ${more(usage, both, "json")} more as JSON, ${more(usage, both, "packed")} deflated`);
