import type { SandboxLimits } from "./limits.js";
import type { SandboxLog } from "./log.js";

/** What went wrong, for the agent author: the code itself, a refused feature, or a runtime fault. */
export type SandboxErrorKind = "syntax" | "unsupported" | "reference" | "type" | "range" | "limit" | "thrown" | "host";

type LimitName = keyof SandboxLimits;

/** Errors this module made: told apart without `instanceof`, which a Proxy can answer as it likes. */
const genuine = new WeakSet<object>();

export interface SandboxErrorDetails {
  limit?: LimitName;
  /** Offset in the code text; turned into line and column where the evaluation ends. */
  offset?: number;
  line?: number;
  column?: number;
}

/**
 * Every refusal or failure of the sandbox. It carries a message and a position in the code only:
 * its stack is replaced so that no host frame or path leaks to whoever reads the error.
 */
export class SandboxError extends Error {
  readonly kind: SandboxErrorKind;
  readonly limit?: LimitName;
  line?: number;
  column?: number;
  /** What `console` calls printed before the evaluation stopped, when they printed anything. */
  logs?: SandboxLog[];
  /** @internal offset in the code text while the position is not yet resolved */
  offset?: number;

  constructor(kind: SandboxErrorKind, message: string, details: SandboxErrorDetails = {}) {
    super(message);
    this.name = "SandboxError";
    this.kind = kind;
    if (details.limit !== undefined) this.limit = details.limit;
    if (details.line !== undefined) this.line = details.line;
    if (details.column !== undefined) this.column = details.column;
    if (details.offset !== undefined) this.offset = details.offset;
    Object.defineProperty(this, "offset", { enumerable: false, writable: true });
    this.stack = `SandboxError: ${message}`;
    genuine.add(this);
  }

  /** Whether `value` is a SandboxError the sandbox made (no host code runs to answer). */
  static is(value: unknown): value is SandboxError {
    return typeof value === "object" && value !== null && genuine.has(value);
  }

  /** Fixes line and column from the offset, once, against the code the offset refers to. */
  locate(code: string): this {
    if (this.offset !== undefined && this.line === undefined) {
      let line = 1;
      let lineStart = 0;
      const end = Math.min(this.offset, code.length);
      for (let i = 0; i < end; i++) {
        if (code.charCodeAt(i) === 10) {
          line++;
          lineStart = i + 1;
        }
      }
      this.line = line;
      this.column = end - lineStart + 1;
      this.stack = `SandboxError: ${this.message}\n    at code:${line}:${this.column}`;
    }
    this.offset = undefined;
    return this;
  }
}

/** Attaches a position to an error raised without one (inside a built-in, say). */
export function at<E>(error: E, offset: number): E {
  if (SandboxError.is(error) && error.offset === undefined && error.line === undefined) error.offset = offset;
  return error;
}

export const limitError = (limit: LimitName, message: string): SandboxError =>
  new SandboxError("limit", message, { limit });
export const typeError = (message: string): SandboxError => new SandboxError("type", message);
export const rangeError = (message: string): SandboxError => new SandboxError("range", message);
