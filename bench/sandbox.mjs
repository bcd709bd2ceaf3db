// Evaluations per second of `a + b * 2 > c`: the sandbox against quickjs-emscripten (one reused
// context), expr-eval and `new Function` (no isolation at all: the ceiling).
//
//   npx tsc -b sandbox && node bench/sandbox.mjs [seconds per measurement, default 1]
//
// "cached": the same code text every time (parsed code reused). "parsed anew": every evaluation
// gets a text never seen before (the numeric literal varies over 9,000 values, more than the
// sandbox's cache holds), so each one is parsed and compiled.
import { evaluate } from "../sandbox/dist/index.js";
import { Parser } from "expr-eval";
import { getQuickJS } from "quickjs-emscripten";

const seconds = Number(process.argv[2] ?? 1);
const CODE = "a + b * 2 > c";
const variables = { a: 1, b: 2, c: 4 };
const texts = Array.from({ length: 9_000 }, (_, i) => `a + b * ${1000 + i} > c`);

/**
 * Runs `fn(i)` in batches until the time is up. Returns calls per second of wall time, and per
 * second of this process's CPU time (steadier on a shared machine).
 */
function measure(fn) {
  // Warm up long enough for the optimising compiler to settle.
  const warm = performance.now();
  for (let i = 0; performance.now() - warm < 300; i += 1_000) for (let j = 0; j < 1_000; j++) fn(i + j);
  let count = 0;
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  let elapsed = 0;
  while (elapsed < seconds * 1000) {
    for (let i = 0; i < 10_000; i++) fn(count + i);
    count += 10_000;
    elapsed = performance.now() - start;
  }
  const cpu = process.cpuUsage(cpuStart);
  return { wall: (count / elapsed) * 1000, cpu: count / ((cpu.user + cpu.system) / 1e6) };
}

const check = (name, value, expected) => {
  if (value !== expected) throw new Error(`${name} returned ${value}, expected ${expected}`);
};

const results = [];
function row(name, cached, anew) {
  results.push({ name, cached, anew });
}

// The sandbox.
check("sandbox", evaluate(CODE, variables).value, true);
row(
  "sandbox (autograms)",
  measure(() => evaluate(CODE, variables)),
  measure((i) => evaluate(texts[i % texts.length], variables)),
);

// quickjs-emscripten: one context reused; variables set as globals before each evaluation.
const QuickJS = await getQuickJS();
const vm = QuickJS.newContext();
const setVariables = () => {
  for (const [name, value] of Object.entries(variables)) {
    const handle = vm.newNumber(value);
    vm.setProp(vm.global, name, handle);
    handle.dispose();
  }
};
const quickEval = (code) => {
  setVariables();
  const result = vm.unwrapResult(vm.evalCode(code));
  const value = vm.dump(result);
  result.dispose();
  return value;
};
check("quickjs", quickEval(CODE), true);
const fn = vm.unwrapResult(vm.evalCode(`(a, b, c) => ${CODE}`));
const quickCall = () => {
  const args = [vm.newNumber(variables.a), vm.newNumber(variables.b), vm.newNumber(variables.c)];
  const result = vm.unwrapResult(vm.callFunction(fn, vm.undefined, ...args));
  const value = vm.dump(result);
  result.dispose();
  for (const arg of args) arg.dispose();
  return value;
};
check("quickjs call", quickCall(), true);
row(
  "quickjs-emscripten (reused context)",
  measure(quickCall),
  measure((i) => quickEval(texts[i % texts.length])),
);
fn.dispose();
vm.dispose();

// expr-eval.
const parser = new Parser();
const parsed = parser.parse(CODE);
check("expr-eval", parsed.evaluate(variables), true);
row(
  "expr-eval",
  measure(() => parsed.evaluate(variables)),
  measure((i) => parser.parse(texts[i % texts.length]).evaluate(variables)),
);

// new Function: V8 compiles the text; no isolation whatsoever.
const compiled = new Function("a", "b", "c", `return ${CODE}`);
check("new Function", compiled(1, 2, 4), true);
row(
  "new Function (unsafe ceiling)",
  measure(() => compiled(variables.a, variables.b, variables.c)),
  measure((i) =>
    new Function("a", "b", "c", `return ${texts[i % texts.length]}`)(variables.a, variables.b, variables.c),
  ),
);

const sandbox = results[0];
const format = (n) => Math.round(n).toLocaleString("en-US").padStart(13);
const ratio = (ours, theirs) => `${(ours / theirs).toFixed(2)}x`.padStart(9);
for (const clock of ["wall", "cpu"]) {
  console.log(
    `\na + b * 2 > c, evaluations per second of ${clock === "wall" ? "wall time" : "CPU time"} (node ${process.version}, ${seconds} s per figure)\n`,
  );
  console.log(`${"".padEnd(36)}${"cached".padStart(13)}${"parsed anew".padStart(13)}   sandbox is (cached, anew)`);
  for (const { name, cached, anew } of results) {
    const ratios =
      name === sandbox.name
        ? ""
        : `${ratio(sandbox.cached[clock], cached[clock])}${ratio(sandbox.anew[clock], anew[clock])}`;
    console.log(`${name.padEnd(36)}${format(cached[clock])}${format(anew[clock])}   ${ratios}`);
  }
}
const met = (value, target) => (value >= target ? "met" : "MISSED");
console.log(
  `\ntargets (wall time): cached >= 2,000,000/s ${met(sandbox.cached.wall, 2e6)}; parsed anew >= 200,000/s ${met(sandbox.anew.wall, 2e5)}`,
);
