/// <reference types="node" preserve="true" />
// The reference (kept in the emitted .d.ts) brings Node's types, a dependency of this package,
// into a project that lists none: a pool's options speak of URL.
// Public API of @autograms/sandbox: the sandboxed evaluator, where code nodes, conditions and
// call arguments run (docs/sandbox.md), and the check of a graph's code against it.
export { evaluate, evaluateAsync, evaluateWrites, checkCode, hostFunctionNames } from "./evaluate.js";
export type { SandboxOptions, Evaluation, WrittenEvaluation, Writes } from "./evaluate.js";
export { SandboxError } from "./errors.js";
export type { SandboxErrorKind } from "./errors.js";
export { DEFAULT_LIMITS } from "./limits.js";
export { SANDBOX_SURFACE } from "./surface.js";
export { surfaceProblems, allMethods } from "./surface-check.js";
export type { SurfaceProblem } from "./surface-check.js";
export { globalHint, methodHint, unknownFunctionHint } from "./surface-hints.js";
export type { SandboxSurface } from "./surface.js";
export type { SandboxLimits } from "./limits.js";
export type { HostFunction } from "./values/context.js";
export type { LogLevel, SandboxLog } from "./log.js";
export { createSandboxPool } from "./pool/pool.js";
export type { SandboxPool, SandboxPoolOptions } from "./pool/pool.js";
export { codeProblems, validateGraph } from "./graph-code.js";
