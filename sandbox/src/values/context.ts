import { types } from "node:util";
import type { JsonValue } from "@autograms/graph";
import { SandboxError, limitError } from "../errors.js";
import type { SandboxLimits } from "../limits.js";
import { fromHost, toolArgument } from "./copy.js";
import type { LogLevel, SandboxLog } from "../log.js";
import { Closure, Frame, isContainer, type Value } from "./types.js";

/** A tool the host registers: it receives copies of plain data and returns plain data (or a promise of it). */
export type HostFunction = (...args: JsonValue[]) => unknown;

/** One recorded host-call outcome (its result as sandbox data), replayed when an asynchronous evaluation runs again. */
export type HostOutcome = { ok: true; value: Value } | { ok: false; message: string };

/** What an asynchronous evaluation has learnt so far; each rerun replays it instead of calling again. */
export interface Replay {
  readonly outcomes: HostOutcome[];
  readonly randoms: number[];
  /** The host clock as the first run read it, when the code asked for the time and the host gave none. */
  time?: number;
}

const suspensions = new WeakSet<object>();

/** Thrown through the evaluator when a host function returned a promise: the caller awaits and reruns. */
export class Suspend {
  constructor(
    readonly promise: PromiseLike<unknown>,
    readonly name: string,
  ) {
    suspensions.add(this);
  }

  /** A brand check, as `SandboxError.is`: whatever was thrown, no host code runs to answer. */
  static is(value: unknown): value is Suspend {
    return typeof value === "object" && value !== null && suspensions.has(value);
  }
}

const hasOwn = Object.hasOwn;
const isProxy = types.isProxy;
const now = performance.now.bind(performance);
const random = Math.random;
const dateNow = Date.now;
/** Steps between two looks at the clock: the clock costs more than a step. */
const CHECK_INTERVAL = 1_000;
/**
 * The first look at the clock comes this early: every step (a built-in included) is charged
 * before it runs, so the work done before the clock starts is at most this many steps.
 */
const FIRST_CHECK = 100;
/** V8 makes a rope (a cons string) of a concatenation this long or longer, a flat copy below. */
const ROPE_MIN = 13;

/**
 * Wall time of one evaluation, shared by the runs of an asynchronous one (each rerun goes on
 * with what the others spent). Time inside tools is not the evaluation's.
 */
export interface Clock {
  started: number;
  hostTime: number;
}

export function startClock(): Clock {
  return { started: now(), hostTime: 0 };
}

/** JavaScript's globals the sandbox leaves out on purpose (named so in its errors and the compiler's). */
export const UNAVAILABLE: ReadonlySet<string> = new Set([
  "globalThis",
  "global",
  "window",
  "self",
  "process",
  "require",
  "module",
  "exports",
  "eval",
  "Function",
  "Proxy",
  "Reflect",
  "Symbol",
  "Promise",
  "setTimeout",
  "setInterval",
  "setImmediate",
  "queueMicrotask",
  "WebAssembly",
  "Buffer",
  "fetch",
  "Error",
  "RegExp",
  "Map",
  "Set",
  "WeakMap",
  "WeakSet",
  "WeakRef",
  "BigInt",
  "Intl",
  "Atomics",
  "SharedArrayBuffer",
  "ArrayBuffer",
  "DataView",
  "performance",
  "__import__",
  "__builtins__",
  "arguments",
  "structuredClone",
  "escape",
  "unescape",
]);

/**
 * The state of one evaluation: its budget (steps, time, allocation), the variables it reads and
 * writes, and the host functions it may call. Variables written are kept apart from the input,
 * which is never modified.
 */
export class Context {
  steps = 0;
  allocated = 0;
  /** Offset in the code of the operation running: where an error is reported. */
  pos = 0;
  /**
   * Characters concatenated into ropes not yet paid for. V8 concatenates lazily (a cons string)
   * and copies the whole rope out when something flattens it (a search, a comparison, a property
   * key, JSON...): each rope is flattened at most once, so flattening is charged against this
   * pool, and never more than was concatenated.
   */
  ropes = 0;
  /** JSON characters stored so far (the value and the variables copied out), against maxMemorySize. */
  stored = 0;
  private nextCheck: number;
  /** Variables written (or copied for writing) by this evaluation. */
  locals: Map<string, Value> | null = null;
  private consts: Set<string> | null = null;
  private hostCalls = 0;
  private randomCalls = 0;
  /** What `console` calls printed, in order (null until the first). */
  logs: SandboxLog[] | null = null;
  /** What `Date.now()` returned, once the code has asked. */
  time: number | undefined = undefined;

  constructor(
    readonly limits: Readonly<SandboxLimits>,
    private readonly input: Readonly<Record<string, JsonValue>>,
    /** The program can modify data: values read from the input are then copied first. */
    readonly mutates: boolean,
    private readonly functions: Readonly<Record<string, HostFunction>> | undefined,
    /** Present in asynchronous evaluations, which may be rerun. */
    private readonly replay: Replay | null,
    /** Started by the caller (asynchronous evaluations), or at the first checkpoint. */
    private clock: Clock | null = null,
    /** The time `Date.now()` returns; undefined: the host's clock, read once. */
    private readonly givenTime: number | undefined = undefined,
  ) {
    this.nextCheck = Math.min(limits.maxSteps, FIRST_CHECK);
  }

  // Budget.

  charge(steps: number): void {
    this.steps += steps;
    if (this.steps > this.nextCheck) this.checkpoint();
  }

  private checkpoint(): void {
    const { maxSteps, maxTimeMs } = this.limits;
    if (this.steps > maxSteps) throw limitError("maxSteps", `evaluation exceeded ${maxSteps} steps (maxSteps)`);
    const clock = this.clock;
    if (clock === null) this.clock = startClock();
    else if (now() - clock.started - clock.hostTime > maxTimeMs) {
      throw limitError("maxTimeMs", `evaluation took longer than ${maxTimeMs} ms (maxTimeMs)`);
    }
    this.nextCheck = Math.min(maxSteps, this.steps + CHECK_INTERVAL);
  }

  /**
   * At the end of a run that looked at the clock: the last built-in ran to its end without a
   * look, and an evaluation that took longer than maxTimeMs does not succeed.
   */
  finalCheck(): void {
    if (this.clock !== null) this.checkpoint();
  }

  /** A string built by concatenation: V8 may keep it as a rope, to be copied out when flattened. */
  rope(length: number): void {
    if (length >= ROPE_MIN) this.ropes += length;
  }

  /**
   * Before a native that may flatten `text`: if it is a rope the evaluation built, V8 copies it
   * (time and memory in proportion to its length). Charged against the ropes built so far.
   */
  flatten(text: string): void {
    if (this.ropes > 0 && text.length >= ROPE_MIN) {
      const paid = text.length < this.ropes ? text.length : this.ropes;
      this.ropes -= paid;
      this.charge(paid >> 4);
      this.alloc(2 * paid);
    }
  }

  /**
   * Before `text` becomes a property key (or a Map or Set key): V8 flattens and hashes it and
   * keeps an internalized copy. Paid at its full length every time.
   */
  key(text: string): void {
    if (text.length >= ROPE_MIN) {
      this.flatten(text);
      this.charge(text.length >> 4);
      this.alloc(2 * text.length);
    }
  }

  /**
   * Before a native reads `length` characters of `text` (a search, a comparison, a copy): it may
   * flatten it first, and reads `length >> shift` steps' worth (4 characters a step for searches
   * with a pattern, whose worst case costs that much; 16 for plain reads and copies).
   */
  scan(text: string, length: number, shift: number): void {
    this.flatten(text);
    this.charge(1 + (length >> shift));
  }

  alloc(bytes: number): void {
    this.allocated += bytes;
    if (this.allocated > this.limits.maxAllocation) {
      throw limitError(
        "maxAllocation",
        `evaluation allocated more than ${this.limits.maxAllocation} bytes (maxAllocation)`,
      );
    }
  }

  /** Before building an array of this length. */
  checkArrayLength(length: number): void {
    if (length > this.limits.maxArrayLength) {
      throw limitError("maxArrayLength", `array longer than ${this.limits.maxArrayLength} elements (maxArrayLength)`);
    }
    this.alloc(16 + 8 * length);
  }

  /** Before adding elements to an array being built or grown. */
  growArray(length: number, added: number): void {
    if (length + added > this.limits.maxArrayLength) {
      throw limitError("maxArrayLength", `array longer than ${this.limits.maxArrayLength} elements (maxArrayLength)`);
    }
    this.alloc(8 * added);
  }

  checkStringLength(length: number): void {
    if (length > this.limits.maxStringLength) {
      throw limitError(
        "maxStringLength",
        `string longer than ${this.limits.maxStringLength} characters (maxStringLength)`,
      );
    }
  }

  // Variables.

  read(name: string, offset: number): Value {
    const locals = this.locals;
    if (locals !== null) {
      const value = locals.get(name);
      if (value !== undefined || locals.has(name)) return value;
    }
    if (hasOwn(this.input, name)) return this.adopt(name);
    // `$name` is the original AutoGRAMS spelling of a variable in code: bound as a value, never spliced.
    if (name.length > 1 && name.charCodeAt(0) === 36) {
      const bare = name.slice(1);
      if (this.has(bare)) return this.read(bare, offset);
    }
    this.pos = offset;
    if (this.isHostFunction(name))
      throw new SandboxError("type", `${name} is a tool: it can only be called, as in ${name}(...)`);
    throw notDefined(name);
  }

  has(name: string): boolean {
    return (this.locals !== null && this.locals.has(name)) || hasOwn(this.input, name);
  }

  private adopt(name: string): Value {
    const value = this.input[name] as Value;
    if (!this.mutates || !isContainer(value)) return value;
    const copy = fromHost(this, value, `variable '${name}'`, "type");
    (this.locals ??= new Map()).set(name, copy);
    return copy;
  }

  assign(name: string, value: Value): void {
    if (!this.has(name) && name.length > 1 && name.charCodeAt(0) === 36 && this.has(name.slice(1)))
      name = name.slice(1);
    if (this.consts !== null && this.consts.has(name)) {
      throw new SandboxError("type", `assignment to constant variable '${name}'`);
    }
    if (!this.has(name)) throw notDefined(name);
    (this.locals ??= new Map()).set(name, value);
  }

  declare(name: string, value: Value, constant: boolean): void {
    (this.locals ??= new Map()).set(name, value);
    if (constant) (this.consts ??= new Set()).add(name);
    else this.consts?.delete(name);
  }

  // Calls.

  isHostFunction(name: string): boolean {
    return this.functions !== undefined && hasOwn(this.functions, name) && typeof this.functions[name] === "function";
  }

  callHost(name: string, args: Value[]): Value {
    const fn = this.functions![name]!;
    const plain = args.map((arg, i) => {
      if (arg instanceof Closure) throw new SandboxError("type", `a function cannot be passed to the tool '${name}'`);
      return toolArgument(this, arg, `argument ${i + 1} of '${name}'`);
    });
    const replay = this.replay;
    const index = this.hostCalls++;
    let outcome: HostOutcome | undefined = replay?.outcomes[index];
    if (outcome === undefined) {
      const clock = (this.clock ??= startClock());
      const start = now();
      let result: unknown;
      let thenable: PromiseLike<unknown> | null = null;
      try {
        result = fn(...(plain as JsonValue[]));
        // Reading `then` runs host code too (a getter, a Proxy trap): it is part of the call.
        thenable = thenOf(result);
      } catch (error) {
        outcome = { ok: false, message: `the tool '${name}' failed: ${hostMessage(error)}` };
      } finally {
        clock.hostTime += now() - start;
      }
      if (outcome === undefined) {
        if (thenable !== null) {
          if (replay === null) {
            // Nobody will await it: a rejection must not surface as an unhandled one in the host.
            try {
              Promise.resolve(thenable).then(undefined, () => undefined);
            } catch {
              // A thenable whose `then` cannot even be read again: nothing is left pending.
            }
            throw new SandboxError("host", `the tool '${name}' returned a promise: use evaluateAsync`);
          }
          throw new Suspend(thenable, name);
        }
        // The sandbox copy is the result; an asynchronous evaluation keeps it for its reruns.
        const value = settleHostResult(this, name, result);
        if (replay === null) return value;
        outcome = { ok: true, value };
      }
      replay?.outcomes.push(outcome);
    }
    if (!outcome.ok) throw new SandboxError("host", outcome.message);
    // Each run gets a fresh copy: a rerun must not see what an earlier one did to the result.
    return fromHost(this, outcome.value, `the result of '${name}'`, "host", false);
  }

  random(): number {
    const randoms = this.replay?.randoms;
    const index = this.randomCalls++;
    if (randoms === undefined) return random();
    if (index < randoms.length) return randoms[index]!;
    const value = random();
    randoms.push(value);
    return value;
  }

  /**
   * `Date.now()`: one value for the whole evaluation (all its runs), the host's if it gave one,
   * else the host clock as first read.
   */
  now(): number {
    let time = this.time;
    if (time === undefined) {
      time = this.givenTime;
      if (time === undefined) {
        const replay = this.replay;
        time = replay === null ? dateNow() : (replay.time ??= dateNow());
      }
      this.time = time;
    }
    return time;
  }

  log(level: LogLevel, text: string): void {
    (this.logs ??= []).push({ level, text });
  }

  invoke(closure: Closure, args: Value[]): Value {
    const code = closure.code;
    const pos = this.pos;
    this.charge(code.cost);
    const frame = new Frame(code.slots, closure.frame);
    code.bind(this, frame, args);
    const result = code.body(this, frame);
    // Errors raised by the built-in after this call belong to the call, not to the callback.
    this.pos = pos;
    return result;
  }
}

export function notDefined(name: string): SandboxError {
  return new SandboxError(
    "reference",
    UNAVAILABLE.has(name) ? `${name} is not available in the sandbox` : `${name} is not defined`,
  );
}

/** A promise or thenable, by its `then` method (read once: reading it may run host code). */
function thenOf(value: unknown): PromiseLike<unknown> | null {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return null;
  const then = (value as { then?: unknown }).then;
  if (typeof then !== "function") return null;
  return { then: (onFulfilled, onRejected) => then.call(value, onFulfilled, onRejected) } as PromiseLike<unknown>;
}

/**
 * A tool's result, copied into sandbox data under the evaluation's limits. Whatever the copy
 * meets (a Proxy whose traps throw, a getter, a class instance) fails the call as the tool's
 * fault; only the evaluation's own limit errors go through as they are.
 */
export function settleHostResult(ctx: Context, name: string, result: unknown): Value {
  try {
    return fromHost(ctx, result, `the result of '${name}'`, "host");
  } catch (error) {
    if (SandboxError.is(error)) {
      if (error.kind === "limit") throw error;
      throw new SandboxError("host", error.message);
    }
    throw new SandboxError("host", `the result of '${name}' could not be read: ${hostMessage(error)}`);
  }
}

/** A host error's message only: its stack and type stay on the host side. Never throws. */
export function hostMessage(error: unknown): string {
  let message: string;
  try {
    if (SandboxError.is(error)) message = error.message;
    else if (typeof error === "string") message = error;
    else if (typeof error === "object" && error !== null && !isProxy(error) && error instanceof Error) {
      // A getter on the way may run host code or throw: caught below, like everything here.
      const text: unknown = error.message;
      message = typeof text === "string" ? text : "an error was thrown";
    } else message = "an error was thrown";
  } catch {
    message = "an error was thrown";
  }
  return message.length > 500 ? `${message.slice(0, 500)}…` : message;
}
