// `autograms eval` over 100 cases with an instant model (the offline one): the wall time of the
// whole command as a user runs it (start, compile the agent, read and check the cases, run them,
// print the table, store the experiment), and the engine's own time as the report gives it.
// docs/evals.md quotes it.
//
//   npm run build && node bench/eval.mjs [cases, default 100] [--concurrency N]
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const N = Number(args.find((a) => /^\d+$/.test(a)) ?? 100);
const at = args.indexOf("--concurrency");
const concurrency = at >= 0 ? args[at + 1] : "4";

// Four kinds of conversation with the recruiter, each with several expectations a turn.
const kinds = [
  (i) => ({
    name: `below the range ${i}`,
    turns: [
      { expect: { node: "greet", reply: { contains: "ready" } } },
      { user: "Yes, I am ready to start.", expect: { node: "ask_background", path: ["greet", "ask_background"] } },
      {
        user: "Five years of Go and Postgres.",
        expect: { node: "ask_salary", varsSchema: { background: { type: "string" } } },
      },
      {
        user: "Below the range is fine for me.",
        expect: { node: "agent.ts:64", vars: { outcome: "expects a salary below the range" }, maxMs: 1000 },
      },
    ],
  }),
  (i) => ({
    name: `not interested ${i}`,
    turns: [
      {},
      { user: "No, I do not want to do the interview.", expect: { node: "stop_early", reply: { regex: "good luck" } } },
    ],
  }),
  (i) => ({
    name: `another role ${i}`,
    vars: { role: `role ${i}` },
    turns: [{}, { user: "Yes, ready.", expect: { reply: { contains: `role ${i}` }, maxTokens: 5000 } }],
  }),
  (i) => ({ name: `simulated ${i}`, simulate: { maxTurns: 20, seed: i }, expect: { reached: ["greet"] } }),
];

const dir = mkdtempSync(join(tmpdir(), "autograms-bench-eval-"));
try {
  const cases = join(dir, "cases.jsonl");
  writeFileSync(
    cases,
    Array.from({ length: N }, (_, i) => JSON.stringify(kinds[i % kinds.length](i))).join("\n") + "\n",
  );
  const json = join(dir, "report.json");
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    [
      join(root, "cli/bin/autograms.js"),
      "eval",
      "samples/recruiter/agent.ts",
      cases,
      "--offline",
      "--concurrency",
      concurrency,
      "--json",
      json,
      // Kept as a user's run is (an experiment in the store), in a database of the benchmark's own.
      "--store",
      `sqlite:${join(dir, "experiments.db")}`,
    ],
    { cwd: root, encoding: "utf8" },
  );
  const wall = (performance.now() - started) / 1000;
  if (run.status === null || run.status > 1) throw new Error(`autograms eval failed (${run.status}):\n${run.stderr}`);
  const report = JSON.parse(readFileSync(json, "utf8"));
  const outcomes = report.runs.flatMap((r) => r.outcomes);
  console.log(
    `autograms eval: ${N} cases, ${outcomes.length} expectations (${outcomes.filter((o) => !o.pass).length} failed), concurrency ${concurrency}`,
  );
  console.log(`  the command, start to exit: ${wall.toFixed(2)} s`);
  console.log(`  running the cases (the report's time): ${(report.ms / 1000).toFixed(2)} s`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
