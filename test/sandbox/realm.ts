import { expect } from "vitest";
import { evaluate, SandboxError, type Evaluation, type SandboxOptions } from "@autograms/runtime";

/**
 * Guards for attack tests: a snapshot of everything an escape would touch (built-in prototypes,
 * constructors, the global object), and a check that what comes back is plain data.
 */

const WATCHED: Record<string, object> = {
  "Object.prototype": Object.prototype,
  "Array.prototype": Array.prototype,
  "String.prototype": String.prototype,
  "Number.prototype": Number.prototype,
  "Boolean.prototype": Boolean.prototype,
  "BigInt.prototype": BigInt.prototype,
  "Symbol.prototype": Symbol.prototype,
  "Function.prototype": Function.prototype,
  "Promise.prototype": Promise.prototype,
  "Error.prototype": Error.prototype,
  "RegExp.prototype": RegExp.prototype,
  "Map.prototype": Map.prototype,
  "Set.prototype": Set.prototype,
  Object,
  Array,
  String,
  Number,
  Boolean,
  Function,
  Promise,
  Error,
  JSON,
  Math,
  Reflect,
  Symbol,
  globalThis,
  process,
};

type Snapshot = Map<string, unknown>;

export function snapshotRealm(): Snapshot {
  const snapshot: Snapshot = new Map();
  for (const [name, target] of Object.entries(WATCHED)) {
    snapshot.set(`${name} [[Prototype]]`, Object.getPrototypeOf(target));
    snapshot.set(`${name} extensible`, Object.isExtensible(target));
    for (const key of Reflect.ownKeys(target)) {
      const descriptor = Object.getOwnPropertyDescriptor(target, key)!;
      const label = `${name}.${String(key)}`;
      snapshot.set(label, [
        descriptor.value,
        descriptor.get,
        descriptor.set,
        descriptor.writable,
        descriptor.enumerable,
        descriptor.configurable,
      ]);
    }
  }
  return snapshot;
}

export function expectRealmUntouched(before: Snapshot): void {
  const after = snapshotRealm();
  const changed: string[] = [];
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(key);
    const b = after.get(key);
    const same = Array.isArray(a) && Array.isArray(b) ? a.every((x, i) => Object.is(x, b[i])) : Object.is(a, b);
    // Node keeps a few process fields up to date on its own (uptime counters and the like), and its
    // fetch installs its dispatcher on globalThis when first used (a request of another test file
    // sharing this worker may be the first).
    const host =
      key.startsWith("process.") ||
      key.startsWith("globalThis.__vitest") ||
      key.startsWith("globalThis.Symbol(undici.");
    if (!same && !host) changed.push(key);
  }
  expect(changed).toEqual([]);
}

/** JSON-shaped data with ordinary prototypes, no accessors, no functions, no cycles. */
export function expectPlainData(value: unknown, label = "value"): void {
  expect(plainDataProblem(value, label, [])).toBeNull();
}

function plainDataProblem(value: unknown, path: string, ancestors: object[]): string | null {
  if (value === null || value === undefined || typeof value === "string" || typeof value === "boolean") return null;
  if (typeof value === "number") return Number.isFinite(value) ? null : `${path} is ${value}`;
  if (typeof value !== "object") return `${path} is a ${typeof value}`;
  if (ancestors.includes(value)) return `${path} is a cycle`;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Array.prototype && prototype !== Object.prototype) return `${path} has an unusual prototype`;
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key !== "string") return `${path} has a symbol key`;
    if (Array.isArray(value) && key === "length") continue;
    const descriptor = Object.getOwnPropertyDescriptor(value, key)!;
    if (!("value" in descriptor)) return `${path}.${key} is an accessor`;
    const problem = plainDataProblem(descriptor.value, `${path}.${key}`, [...ancestors, value]);
    if (problem !== null) return problem;
  }
  return null;
}

export interface Outcome {
  result?: Evaluation;
  error?: SandboxError;
  /** What the evaluation cost, in milliseconds (see `stopwatch`). */
  ms: number;
}

/**
 * Measures what a run cost this process: its CPU time, or its wall time when that is less. Other
 * work on a busy machine stretches wall time but not CPU time, and a runaway evaluation (a native
 * working on an unchecked size, a limit not enforced) costs both, so a bound on this stays true
 * under load and still fails when the evaluation does not stop.
 */
export function stopwatch(): () => number {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  return () => {
    const used = process.cpuUsage(cpu);
    return Math.min(performance.now() - wall, (used.user + used.system) / 1000);
  };
}

/**
 * Runs one attempt: it must end in a value of plain data or a SandboxError, leave the realm and
 * the input untouched, and finish quickly.
 */
export function attempt(code: string, variables: Record<string, any> = {}, options?: SandboxOptions): Outcome {
  const before = snapshotRealm();
  const input = JSON.stringify(variables);
  const elapsed = stopwatch();
  let outcome: Outcome;
  try {
    outcome = { result: evaluate(code, variables, options), ms: 0 };
  } catch (error) {
    if (!(error instanceof SandboxError)) throw new Error(`${code} threw a non-sandbox error: ${String(error)}`);
    outcome = { error, ms: 0 };
  }
  outcome.ms = elapsed();
  expectRealmUntouched(before);
  expect(JSON.stringify(variables)).toBe(input);
  if (outcome.result) {
    expectPlainData(outcome.result.value);
    expectPlainData(outcome.result.variables, "variables");
  }
  if (outcome.error) {
    expect(
      outcome.error
        .stack!.split("\n")
        .slice(1)
        .every((line) => /^\s+at code:\d+:\d+$/.test(line)),
      "no host frames",
    ).toBe(true);
  }
  return outcome;
}

/** An attempt that must be refused, of the given kind. */
export function refused(
  code: string,
  kind?: SandboxError["kind"],
  variables: Record<string, any> = {},
  options?: SandboxOptions,
): SandboxError {
  const outcome = attempt(code, variables, options);
  expect(outcome.error, `${code} should be refused, got ${JSON.stringify(outcome.result?.value)}`).toBeInstanceOf(
    SandboxError,
  );
  if (kind) expect(outcome.error!.kind, outcome.error!.message).toBe(kind);
  return outcome.error!;
}
