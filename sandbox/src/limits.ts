/** Resource limits of one evaluation. Each breach is a `SandboxError` of kind "limit" naming the limit. */
export interface SandboxLimits {
  /** Work units per evaluation: one per syntax node run, plus one per element a built-in visits. */
  maxSteps: number;
  /** Wall time of the evaluation itself (time spent inside host functions is not counted). */
  maxTimeMs: number;
  /** Longest string that may be created (UTF-16 code units), checked before allocating. */
  maxStringLength: number;
  /** Longest array that may be created or grown. */
  maxArrayLength: number;
  /** Approximate bytes allocated during one evaluation (strings, arrays, objects, copies). */
  maxAllocation: number;
  /** Nesting depth of code (parser and evaluator) and of data (copies, JSON, joins). */
  maxDepth: number;
  /** Length of the code text. */
  maxSourceLength: number;
  /** Size of any BigInt created, in bits. */
  maxBigIntBits: number;
  /**
   * JSON size, in characters, of one value the evaluation hands out: its value, each variable it
   * writes, each tool argument. Strings count their length and quotes; escapes (which can make a
   * string's JSON up to six times longer) are not counted.
   */
  maxVariableSize: number;
  /** JSON size, counted the same way, of everything one evaluation stores: its value and all the variables it writes. */
  maxMemorySize: number;
  /**
   * Characters of one `console.log(...)` line: a longer one is cut there, with a note saying so.
   * A debug print never fails the evaluation; what it formats is charged as steps and allocation.
   */
  maxLogLength: number;
}

export const DEFAULT_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  maxSteps: 1_000_000,
  maxTimeMs: 1_000,
  maxStringLength: 1_000_000,
  maxArrayLength: 100_000,
  maxAllocation: 64 * 1024 * 1024,
  maxDepth: 200,
  maxSourceLength: 100_000,
  maxBigIntBits: 4_096,
  maxVariableSize: 16_000_000,
  maxMemorySize: 64_000_000,
  maxLogLength: 10_000,
});
