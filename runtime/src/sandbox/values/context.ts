import type { JsonValue } from "../../graph/types.js";
import { SandboxError, limitError } from "../errors.js";
import type { SandboxLimits } from "../limits.js";
import { fromHost, toHost } from "./copy.js";
import { Closure, Frame, isContainer, type Value } from "./types.js";

/** A tool the host registers: it receives copies of plain data and returns plain data (or a promise of it). */
export type HostFunction = (...args: JsonValue[]) => unknown;

/** One recorded host-call outcome, replayed when an asynchronous evaluation runs again. */
export type HostOutcome = { ok: true; value: JsonValue | undefined } | { ok: false; message: string };

/** What an asynchronous evaluation has learnt so far; each rerun replays it instead of calling again. */
export interface Replay {
  readonly outcomes: HostOutcome[];
  readonly randoms: number[];
}

/** Thrown through the evaluator when a host function returned a promise: the caller awaits and reruns. */
export class Suspend {
  constructor(readonly promise: PromiseLike<unknown>, readonly name: string) {}
}

const hasOwn = Object.hasOwn;
const now = performance.now.bind(performance);
const random = Math.random;
/** Steps between two looks at the clock: the clock costs more than a step. */
const CHECK_INTERVAL = 1_000;

/** JavaScript's globals the sandbox leaves out on purpose (named so in its errors and the compiler's). */
export const UNAVAILABLE: ReadonlySet<string> = new Set([
  "globalThis", "global", "window", "self", "process", "require", "module", "exports", "eval", "Function",
  "Proxy", "Reflect", "Symbol", "Promise", "setTimeout", "setInterval", "setImmediate", "queueMicrotask",
  "WebAssembly", "Buffer", "fetch", "Error", "RegExp", "Date", "Map", "Set", "WeakMap", "WeakSet",
  "WeakRef", "BigInt", "Intl", "Atomics", "SharedArrayBuffer", "ArrayBuffer", "DataView", "console",
  "__import__", "__builtins__", "arguments", "structuredClone", "escape", "unescape",
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
  private nextCheck: number;
  private started = -1;
  private hostTime = 0;
  /** Variables written (or copied for writing) by this evaluation. */
  locals: Map<string, Value> | null = null;
  private consts: Set<string> | null = null;
  private hostCalls = 0;
  private randomCalls = 0;

  constructor(
    readonly limits: Readonly<SandboxLimits>,
    private readonly input: Readonly<Record<string, JsonValue>>,
    /** The program can modify data: values read from the input are then copied first. */
    readonly mutates: boolean,
    private readonly functions: Readonly<Record<string, HostFunction>> | undefined,
    /** Present in asynchronous evaluations, which may be rerun. */
    private readonly replay: Replay | null,
  ) {
    this.nextCheck = Math.min(limits.maxSteps, CHECK_INTERVAL);
  }

  // Budget.

  charge(steps: number): void {
    this.steps += steps;
    if (this.steps > this.nextCheck) this.checkpoint();
  }

  private checkpoint(): void {
    const { maxSteps, maxTimeMs } = this.limits;
    if (this.steps > maxSteps) throw limitError("maxSteps", `evaluation exceeded ${maxSteps} steps (maxSteps)`);
    const time = now();
    if (this.started < 0) this.started = time;
    else if (time - this.started - this.hostTime > maxTimeMs) {
      throw limitError("maxTimeMs", `evaluation took longer than ${maxTimeMs} ms (maxTimeMs)`);
    }
    this.nextCheck = Math.min(maxSteps, this.steps + CHECK_INTERVAL);
  }

  alloc(bytes: number): void {
    this.allocated += bytes;
    if (this.allocated > this.limits.maxAllocation) {
      throw limitError("maxAllocation", `evaluation allocated more than ${this.limits.maxAllocation} bytes (maxAllocation)`);
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
      throw limitError("maxStringLength", `string longer than ${this.limits.maxStringLength} characters (maxStringLength)`);
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
    if (this.isHostFunction(name)) throw new SandboxError("type", `${name} is a tool: it can only be called, as in ${name}(...)`);
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
    if (!this.has(name) && name.length > 1 && name.charCodeAt(0) === 36 && this.has(name.slice(1))) name = name.slice(1);
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
      return toHost(this, arg, `argument ${i + 1} of '${name}'`);
    });
    const replay = this.replay;
    const index = this.hostCalls++;
    let outcome: HostOutcome | undefined = replay?.outcomes[index];
    if (outcome === undefined) {
      const start = now();
      let result: unknown;
      try {
        result = fn(...(plain as JsonValue[]));
      } catch (error) {
        outcome = { ok: false, message: `the tool '${name}' failed: ${hostMessage(error)}` };
      } finally {
        this.hostTime += now() - start;
      }
      if (outcome === undefined) {
        if (isThenable(result)) {
          if (replay === null) {
            // Nobody will await it: a rejection must not surface as an unhandled one in the host.
            result.then(undefined, () => undefined);
            throw new SandboxError("host", `the tool '${name}' returned a promise: use evaluateAsync`);
          }
          throw new Suspend(result, name);
        }
        outcome = settleHostResult(this, name, result);
      }
      replay?.outcomes.push(outcome);
    }
    if (!outcome.ok) throw new SandboxError("host", outcome.message);
    return fromHost(this, outcome.value, `the result of '${name}'`, "host");
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
  return new SandboxError("reference", UNAVAILABLE.has(name)
    ? `${name} is not available in the sandbox`
    : `${name} is not defined`);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null
    && typeof (value as { then?: unknown }).then === "function";
}

/** A host result, checked to be plain data and recorded as such. */
export function settleHostResult(ctx: Context, name: string, result: unknown): HostOutcome {
  try {
    return { ok: true, value: toHost(ctx, fromHost(ctx, result, `the result of '${name}'`, "host"), `the result of '${name}'`) as JsonValue | undefined };
  } catch (error) {
    if (error instanceof SandboxError && error.kind === "limit") throw error;
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/** A host error's message only: its stack and type stay on the host side. */
export function hostMessage(error: unknown): string {
  let message: string;
  try {
    message = error instanceof Error ? String(error.message) : typeof error === "string" ? error : "an error was thrown";
  } catch {
    message = "an error was thrown";
  }
  return message.length > 500 ? `${message.slice(0, 500)}…` : message;
}
