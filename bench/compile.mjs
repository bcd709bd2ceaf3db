// Compiler speed: `npm run build`, then `node bench/compile.mjs`.
// Budgets (compiling is interactive: editor save, --watch): at most 100 ms per 1,000 lines of
// agent source, near-linear growth (4x the source, at most 4.8x the time), and a cold
// `autograms compile` of a small sample under 0.8 s including Node's start.
// Prints the figures; exits 1 when a budget is missed.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const { compile } = await import(join(root, "compiler/dist/index.js"));

/** An agent of about `lines` lines: methods mixing every kind of statement the language has. */
function agentOfLines(lines) {
  const head = [
    'import { Autogram, chat, thought, exec_node, func, globalFunction } from "@autograms/runtime";',
    "",
    "export default class Big extends Autogram {",
    '  topics = ["fractions", "decimals", "percentages"];',
    "  score = 0;",
    "",
    "  main() {",
  ];
  const methods = [];
  const calls = [];
  let count = head.length + 3;
  for (let i = 0; count < lines; i++) {
    calls.push(`    this.unit${i}("${i}");`);
    const body = [
      `  @globalFunction unit${i}(label: string) {`,
      `    let tries = 0;`,
      `    const intro = thought(\`Plan unit ${i} about \${label} for score \${this.score}.\`);`,
      `    exec_node({`,
      `      action: "chat", name: "ask_${i}",`,
      `      instruction: \`Ask question ${i}: \${intro}\`,`,
      `      transitions: ["next", "ask_${i}"],`,
      `      transition_question: "Did the user answer?",`,
      `      transition_choices: ["yes", "no"],`,
      `    });`,
      `    while (tries < 3 && this.check${i}(intro) !== "correct") {`,
      `      tries += 1;`,
      `      if (tries === 2) {`,
      `        chat("Give a hint for unit ${i}.");`,
      `      } else if (tries > 2) {`,
      `        chat(\`Explain the answer to \${label}.\`);`,
      `        break;`,
      `      }`,
      `    }`,
      `    for (const topic of this.topics) {`,
      `      const marks = [tries, topic.length].map((n) => n * 2).reduce((a, b) => a + b, 0);`,
      `      this.score = this.score + marks;`,
      `    }`,
      `    switch (tries) {`,
      `      case 0: chat("Perfect."); break;`,
      `      default: chat(\`Score now \${this.score}.\`);`,
      `    }`,
      `  }`,
      ``,
      `  @func check${i}(problem: string): string {`,
      `    return thought(\`Is the answer to \${problem} correct? Reply correct or wrong.\`);`,
      `  }`,
      ``,
    ];
    methods.push(...body);
    count += body.length + 1;
  }
  return [...head, ...calls, "  }", "", ...methods, "}", ""].join("\n");
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Median wall time and CPU time (ms) of compiling `source`. */
function timeCompile(source, runs) {
  const times = [];
  const cpus = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const cpu = process.cpuUsage();
    const { graph, diagnostics } = compile(source, { fileName: "big.ts" });
    const used = process.cpuUsage(cpu);
    times.push(performance.now() - start);
    cpus.push((used.user + used.system) / 1000);
    if (!graph) throw new Error(`the benchmark agent does not compile: ${diagnostics[0]?.message}`);
  }
  return { ms: median(times), cpu: median(cpus) };
}

const failures = [];
const check = (ok, what) => {
  if (!ok) failures.push(what);
  return ok ? "ok" : "OVER BUDGET";
};

// Warm up the parser and the compiler (a long-running --watch is warm; the cold case is below).
timeCompile(agentOfLines(2000), 5);
const sizes = [1000, 2000, 4000, 8000];
const rows = sizes.map((lines) => {
  const source = agentOfLines(lines);
  const actual = source.split("\n").length;
  const { ms, cpu } = timeCompile(source, lines >= 4000 ? 7 : 11);
  return { lines: actual, ms, cpu, perThousand: (ms / actual) * 1000 };
});
// Other work on the machine slows every figure; the load average says how busy it was.
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")} on ${(await import("node:os")).cpus().length} cores`,
);
console.log("compile (warm, median of runs; CPU time beside wall time)");
for (const r of rows) {
  console.log(
    `  ${String(r.lines).padStart(5)} lines  ${r.ms.toFixed(1).padStart(7)} ms (CPU ${r.cpu.toFixed(1).padStart(6)} ms)  ${r.perThousand.toFixed(1).padStart(6)} ms per 1,000 lines  ${check(r.perThousand <= 100, `${r.lines} lines: ${r.perThousand.toFixed(1)} ms per 1,000 lines`)}`,
  );
}
const growth = (a, b) => (b.ms / a.ms / (b.lines / a.lines)) * 4;
const g1 = growth(rows[0], rows[2]);
const g2 = growth(rows[1], rows[3]);
console.log(
  `  4x the source: ${g1.toFixed(2)}x the time (1,000 -> 4,000; budget 4.8x)  ${check(g1 <= 4.8, `growth ${g1.toFixed(2)}x`)}; ${g2.toFixed(2)}x from 2,000 to 8,000`,
);

// Cold: a new Node process compiling a small sample, as an editor's save hook would run it.
const sample = join(root, "samples/tutor/agent.ts");
const out = mkdtempSync(join(tmpdir(), "autograms-bench-"));
const cold = [];
const bare = [];
for (let i = 0; i < 7; i++) {
  let start = performance.now();
  const r = spawnSync(
    process.execPath,
    // The compiler's own cost: the type check's is measured apart (docs/compiler.md#speed).
    [join(root, "cli/bin/autograms.js"), "compile", sample, "-o", join(out, "tutor.graph.json"), "--no-typecheck"],
    { encoding: "utf8" },
  );
  cold.push(performance.now() - start);
  if (r.status !== 0) throw new Error(`autograms compile failed: ${r.stderr}`);
  start = performance.now();
  spawnSync(process.execPath, ["-e", "0"]);
  bare.push(performance.now() - start);
}
rmSync(out, { recursive: true, force: true });
const lines = readFileSync(sample, "utf8").split("\n").length;
console.log(
  `cold 'autograms compile samples/tutor/agent.ts' (${lines} lines), median of 7: ${median(cold).toFixed(0)} ms (fastest ${Math.min(...cold).toFixed(0)} ms; 'node -e 0' alone ${median(bare).toFixed(0)} ms)  ${check(median(cold) < 800, `cold compile ${median(cold).toFixed(0)} ms`)}`,
);

if (failures.length) {
  console.log(`\nover budget: ${failures.join("; ")}`);
  process.exitCode = 1;
}
