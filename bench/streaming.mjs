// What streaming a reply costs the runtime: one chat node whose scripted model answers in n
// pieces (words of about 7 characters), with and without `onText`, with and without 16 banned
// phrases (the original's list length), so each piece is checked against all of them. Best of 5
// runs each; the figure per piece is the difference from the same reply not streamed, over n.
// Linear work stays flat per piece as n grows; a reply re-scanned per piece would grow with n.
//
//   npm run build && node bench/streaming.mjs
import { Agent, ScriptedModel } from "../runtime/dist/index.js";

const graph = {
  format: "autograms-graph",
  version: 1,
  agent: "Bench",
  globals: {},
  functions: {},
  nodes: [{ name: "talk", action: "chat", instruction: "Talk.", transitions: ["talk"] }],
};
const PHRASES = [
  "as an ai",
  "i cannot",
  "i'm sorry",
  "language model",
  "i apologize",
  "not able to",
  "openai",
  "my training",
  "as a large",
  "i'm unable",
  "cannot fulfill",
  "against my",
  "i am not able",
  "ethical guidelines",
  "inappropriate",
  "i can't",
];

async function best(pieces, phrases, stream) {
  const agent = new Agent(graph, {
    model: new ScriptedModel({ complete: () => pieces }),
    config: { bannedPhrases: phrases },
  });
  let fastest = Infinity;
  for (let run = 0; run < 5; run++) {
    let chunks = 0;
    const started = performance.now();
    const r = await agent.reply("hi", undefined, stream ? { onText: () => chunks++ } : {});
    fastest = Math.min(fastest, performance.now() - started);
    if (stream && chunks < pieces.length / 2) throw new Error(`only ${chunks} chunks for ${pieces.length} pieces`);
    if (r.reply !== pieces.join("").trim()) throw new Error("the reply is not the answer");
  }
  return fastest;
}

console.log("pieces | characters | banned phrases | reply, ms | streamed, ms | µs per piece");
for (const n of [1_000, 10_000, 100_000]) {
  const pieces = Array.from({ length: n }, (_, i) => `word${i % 97} `);
  const chars = pieces.join("").length;
  for (const phrases of [[], PHRASES]) {
    const plain = await best(pieces, phrases, false);
    const streamed = await best(pieces, phrases, true);
    console.log(
      `${n} | ${chars} | ${phrases.length} | ${plain.toFixed(1)} | ${streamed.toFixed(1)} | ${(((streamed - plain) * 1000) / n).toFixed(2)}`,
    );
  }
}
