/**
 * The compiler as the visitors of each syntax kind see it: they compile nested nodes through it
 * (`c.expression(node)`, `c.statement(...)`), never by importing the dispatcher, which imports them.
 */
import type { SandboxError } from "../errors.js";
import type { Expression, Pattern, Statement } from "../syntax/ast.js";
import type { Context } from "../values/context.js";
import type { Frame, Value } from "../values/types.js";
import type { FunctionScope, Resolved } from "./scope.js";

/**
 * Compiles the tree into closures ("closure compilation"): each node becomes a function of the
 * evaluation context and the current frame. This is still an interpreter walking the allowed
 * tree (no guest text ever reaches V8 as code), without re-dispatching on node kinds at run time.
 */
export type Thunk = (ctx: Context, frame: Frame | null) => Value;

/**
 * At the top level a statement returns its value (the program's value is the last one's). In an
 * arrow function's block it returns NORMAL, or the value of a `return` that ends the call.
 */
export type StatementThunk = (ctx: Context, frame: Frame | null) => Value;

export type BindMode = "let" | "const" | "assign";
export type Binder = (ctx: Context, frame: Frame | null, value: Value) => void;

export interface Compiler {
  fn: FunctionScope | null;
  /** Syntax nodes of the body being compiled (the program, or the innermost arrow function). */
  cost: number;
  mutates: boolean;
  /** Free names the code looks up among the host's functions: those it calls, and those it asks `typeof` of. */
  readonly hostNames: Set<string>;
  /** Names the program declares `const` at its top level, so that writing them is refused before running. */
  constants: Set<string> | null;
  /** One level deeper (checked against maxDepth), one more syntax node of cost. */
  enter(offset: number): void;
  leave(): void;
  expression(node: Expression): Thunk;
  statement(node: Statement, topLevel: boolean): StatementThunk;
  /** A call inside an optional chain (`a?.b()`), where a nullish link ends the chain. */
  call(node: Extract<Expression, { kind: "Call" }>, inChain: boolean): Thunk;
  pattern(node: Pattern, mode: BindMode): Binder;
  /** The text of a node, for messages: computed only when a message needs it. */
  text(node: { start: number; end: number }): () => string;
  error(kind: "syntax" | "unsupported" | "type" | "reference", message: string, node: { start: number }): SandboxError;
  /** Where a local name of an arrow function lives; null for the agent's variables. */
  resolve(name: string): Resolved | null;
  declareLocal(name: string, constant: boolean, node: { start: number }): number;
}
