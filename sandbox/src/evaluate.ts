import { types } from "node:util";
import { LRUCache } from "lru-cache";
import type { JsonValue } from "@autograms/graph";
import { compileProgram, type CompiledProgram } from "./compile/compiler.js";
import { SandboxError } from "./errors.js";
import { DEFAULT_LIMITS, type SandboxLimits } from "./limits.js";
import { resolveLimits } from "./resolve-limits.js";
import { parse } from "./syntax/parser.js";
import {
  Context,
  hostMessage,
  settleHostResult,
  startClock,
  Suspend,
  type HostFunction,
  type Replay,
} from "./values/context.js";
import type { SandboxLog } from "./log.js";
import { storeOut, storeVariable } from "./values/copy.js";
import type { Value } from "./values/types.js";

export interface SandboxOptions extends Partial<SandboxLimits> {
  /** Tools the code may call by name. They receive copies of plain data and return plain data. */
  functions?: Record<string, HostFunction>;
  /**
   * What `Date.now()` returns, in milliseconds since 1970 (the runtime gives the turn's time).
   * Without it, the host's clock, read once per evaluation (every rerun of an asynchronous one
   * sees the same value).
   */
  now?: number;
}

export interface Evaluation {
  /** The code's value: an expression's value, an assignment's assigned value, a declaration's last initial value. */
  value: JsonValue | undefined;
  /** All variables after the evaluation (a fresh object; values not written are shared with the input). */
  variables: Record<string, JsonValue>;
  /** What `console.log(...)` and its siblings printed, in order; absent when nothing was. */
  logs?: SandboxLog[];
  /** What `Date.now()` returned, when the code asked for the time. */
  time?: number;
}

/**
 * Compiled code, cached by its text (and by the limits that shape parsing, when they are not the
 * defaults), the least recently used first to go. A text is admitted on its second sighting only,
 * so code seen once (say, generated per turn) does not crowd the cache: the texts seen are kept,
 * least recently seen first to go, in a bound four times larger.
 */
const PROGRAMS = 1000;
const programs = new LRUCache<string, CompiledProgram>({ max: PROGRAMS });
const seen = new LRUCache<string, true>({ max: 4 * PROGRAMS });

function programOf(code: string, limits: Readonly<SandboxLimits>): CompiledProgram {
  const key =
    limits.maxDepth === DEFAULT_LIMITS.maxDepth &&
    limits.maxSourceLength === DEFAULT_LIMITS.maxSourceLength &&
    limits.maxBigIntBits === DEFAULT_LIMITS.maxBigIntBits
      ? code
      : `${limits.maxDepth}:${limits.maxSourceLength}:${limits.maxBigIntBits}:${code}`;
  let program = programs.get(key);
  if (program !== undefined) return program;
  if (typeof code !== "string") throw new SandboxError("type", "the code must be a string");
  program = compileProgram(parse(code, limits), code, limits.maxDepth);
  if (seen.get(key)) programs.set(key, program);
  else seen.set(key, true);
  return program;
}

/** Runs one code text over the variables. Never modifies `variables` or anything inside it. */
export function evaluate(
  code: string,
  variables: Readonly<Record<string, JsonValue>>,
  options?: SandboxOptions,
): Evaluation {
  return withVariables(evaluateWrites(code, variables, options), variables);
}

/**
 * What an evaluation wrote, by name, in the order written (a variable written `undefined` is
 * gone); null when it wrote nothing. A variable read for modification counts as written.
 */
export type Writes = Map<string, JsonValue | undefined>;

/** An evaluation as `evaluate` gives it, with what it wrote instead of all the variables after it. */
export interface WrittenEvaluation extends Omit<Evaluation, "variables"> {
  writes: Writes | null;
}

/**
 * `evaluate`, giving only what the code wrote: the caller that keeps the variables (the runtime)
 * then copies them only when something changed.
 */
export function evaluateWrites(
  code: string,
  variables: Readonly<Record<string, JsonValue>>,
  options?: SandboxOptions,
): WrittenEvaluation {
  let ctx: Context | undefined;
  try {
    const limits = resolveLimits(options);
    const program = programOf(code, limits);
    ctx = new Context(limits, variables, program.mutates, options?.functions, null, null, givenTime(options));
    return finish(ctx, program.run(ctx));
  } catch (error) {
    throw toSandboxError(error, code, ctx);
  }
}

/**
 * Like `evaluate`, but tools may return promises. The evaluation is pure apart from tool calls,
 * so when a tool's promise is pending it stops, awaits it, and runs again from the start with
 * the results it has so far: each tool is still called once. All the runs share one clock and
 * a bounded number of steps.
 */
export async function evaluateAsync(
  code: string,
  variables: Readonly<Record<string, JsonValue>>,
  options?: SandboxOptions,
): Promise<Evaluation> {
  let limits: Readonly<SandboxLimits>;
  let program: CompiledProgram;
  let time: number | undefined;
  try {
    limits = resolveLimits(options);
    program = programOf(code, limits);
    time = givenTime(options);
  } catch (error) {
    throw toSandboxError(error, code, undefined);
  }
  const replay: Replay = { outcomes: [], randoms: [] };
  const clock = startClock();
  let spent = 0;
  for (;;) {
    const ctx = new Context(limits, variables, program.mutates, options?.functions, replay, clock, time);
    let suspended: Suspend;
    try {
      return withVariables(finish(ctx, program.run(ctx)), variables);
    } catch (error) {
      if (!Suspend.is(error)) throw toSandboxError(error, code, ctx);
      suspended = error;
    }
    // Each rerun repeats the work before its last tool call: all of them share a bounded budget.
    spent += ctx.steps;
    if (spent > RERUN_BUDGET * limits.maxSteps) {
      throw toSandboxError(
        new SandboxError(
          "limit",
          `evaluation exceeded ${RERUN_BUDGET * limits.maxSteps} steps over its reruns for asynchronous tools (maxSteps)`,
          { limit: "maxSteps" },
        ),
        code,
        ctx,
      );
    }
    const waited = performance.now();
    let settled: unknown;
    let failed = false;
    try {
      settled = await suspended.promise;
    } catch (failure) {
      failed = true;
      replay.outcomes.push({ ok: false, message: `the tool '${suspended.name}' failed: ${hostMessage(failure)}` });
    } finally {
      clock.hostTime += performance.now() - waited;
    }
    if (!failed) {
      try {
        replay.outcomes.push({ ok: true, value: settleHostResult(ctx, suspended.name, settled) });
      } catch (error) {
        throw toSandboxError(error, code, ctx);
      }
    }
  }
}

function givenTime(options: SandboxOptions | undefined): number | undefined {
  const time = options?.now;
  if (time === undefined || (typeof time === "number" && Number.isFinite(time))) return time;
  throw new SandboxError("range", "the sandbox option now must be a finite number of milliseconds");
}

/** How many times maxSteps an asynchronous evaluation may spend over all its reruns. */
const RERUN_BUDGET = 10;

/**
 * The names code looks up among the host's functions (`options.functions`), without running it:
 * the free names it calls (`lookup(x)`, not `Math.max(x)`, `String(x)` or an arrow parameter) and
 * those it asks `typeof` of. Code whose names include none of the tools runs the same with or
 * without them bound. Throws the SandboxError that evaluating would throw before running.
 */
export function hostFunctionNames(code: string, limits?: Partial<SandboxLimits>): ReadonlySet<string> {
  try {
    return programOf(code, resolveLimits(limits)).hostNames;
  } catch (error) {
    throw toSandboxError(error, code, undefined);
  }
}

/** Parses and checks code without running it: null when the sandbox accepts it. */
export function checkCode(code: string): SandboxError | null {
  try {
    programOf(code, DEFAULT_LIMITS);
    return null;
  } catch (error) {
    return toSandboxError(error, code, undefined);
  }
}

function finish(ctx: Context, value: Value): WrittenEvaluation {
  const result =
    typeof value === "object" || typeof value === "number" || typeof value === "bigint" || typeof value === "string"
      ? storeOut(ctx, value, "the value")
      : (value as JsonValue | undefined);
  // The evaluation ends here: its map of locals becomes the map of what it wrote, each value copied out.
  const writes = ctx.locals as Map<string, unknown> | null;
  if (writes !== null) for (const [name, local] of writes) writes.set(name, storeVariable(ctx, local as Value, name));
  ctx.finalCheck();
  const evaluation: WrittenEvaluation = { value: result, writes: writes as Writes | null };
  if (ctx.logs !== null) evaluation.logs = ctx.logs;
  if (ctx.time !== undefined) evaluation.time = ctx.time;
  return evaluation;
}

/** All the variables after an evaluation: a fresh object, the input's values where nothing was written. */
function withVariables(r: WrittenEvaluation, input: Readonly<Record<string, JsonValue>>): Evaluation {
  const variables: Record<string, JsonValue> = { ...input };
  if (r.writes !== null) {
    for (const [name, value] of r.writes) {
      if (value === undefined) delete variables[name];
      else if (name === "__proto__")
        Object.defineProperty(variables, name, { value, enumerable: true, writable: true, configurable: true });
      else variables[name] = value;
    }
  }
  const evaluation: Evaluation = { value: r.value, variables };
  if (r.logs !== undefined) evaluation.logs = r.logs;
  if (r.time !== undefined) evaluation.time = r.time;
  return evaluation;
}

/**
 * Whatever stopped the evaluation, as a SandboxError with a position and no host detail. Never
 * throws, and reads nothing of a value it did not make: a tool may have thrown anything.
 */
function toSandboxError(error: unknown, code: string, ctx: Context | undefined): SandboxError {
  let result: SandboxError;
  try {
    result = classify(error);
  } catch {
    result = new SandboxError("host", "evaluation failed");
  }
  if (ctx !== undefined) {
    if (result.offset === undefined && result.line === undefined) result.offset = ctx.pos;
    // What the code printed before it stopped is what its author most wants to see.
    if (ctx.logs !== null && result.logs === undefined) result.logs = ctx.logs;
  }
  return result.locate(code);
}

function classify(error: unknown): SandboxError {
  if (SandboxError.is(error)) return error;
  if (typeof error !== "object" || error === null || types.isProxy(error))
    return new SandboxError("host", "evaluation failed");
  if (Suspend.is(error))
    return new SandboxError("host", `the tool '${error.name}' returned a promise: use evaluateAsync`);
  // What is left is the host engine's own error (the sandbox's code raising it), never a tool's.
  const message = hostMessage(error);
  if (error instanceof RangeError && /call stack/i.test(message)) {
    return new SandboxError("limit", "evaluation nested too deeply (maxDepth)", { limit: "maxDepth" });
  }
  if (error instanceof RangeError && /invalid (string|array) length|allocation/i.test(message)) {
    return new SandboxError("limit", "evaluation tried to build a value too large (maxAllocation)", {
      limit: "maxAllocation",
    });
  }
  return new SandboxError(
    error instanceof RangeError ? "range" : "type",
    message === "an error was thrown" ? "evaluation failed" : message,
  );
}
