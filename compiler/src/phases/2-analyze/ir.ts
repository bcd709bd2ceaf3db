/**
 * The analyzed agent: what phase 2 hands to lowering. Statements are a discriminated union on
 * `kind`; every one carries its `loc`. Code is already evaluator text (types stripped, `this.x`
 * rewritten, agent calls hoisted into `prelude` statements).
 */
import type { ActionInfo, FunctionKind, JsonValue, Loc, ToolInfo } from "@autograms/graph";

export interface AgentIR {
  className: string;
  globals: Record<string, JsonValue>;
  functions: FunctionIR[];
  tools: Record<string, ToolInfo>;
  /** The custom actions nodes use, by action name. */
  actions: Record<string, ActionInfo>;
}

export interface FunctionIR {
  name: string;
  /** `main` is the top level: its scope is the global scope and its end quits. */
  kind: FunctionKind | "main";
  params: string[];
  /** How many leading parameters a call must pass (the others are optional or have defaults). */
  required: number;
  /** Parameter defaults (JSON literals), by name. */
  defaults: Record<string, JsonValue>;
  body: Stmt[];
  loc: Loc;
}

/** An evaluator expression, with the agent calls it needs computed first. */
export interface Expr {
  prelude: Stmt[];
  code: string;
}

/** An analyzed expression: evaluator code, or one agent call whose output is the value. */
export type Analyzed =
  | { prelude: Stmt[]; code: string; call?: undefined }
  | { prelude: Stmt[]; call: NodeStmt; code?: undefined };

/** The fields of a node as written, before names and "next" are resolved. */
export type NodeFieldsIR = Record<string, JsonValue> & { action: string; transitions?: string[] };

/** Code a node runs itself each time it is entered, before its action: a placeholder's value. */
export interface SetupCode {
  code: string;
  loc: Loc;
}

/**
 * What an agent call's node needs computed. A placeholder without agent calls is the node's own
 * `setup`, run however the node is entered; one with an agent call can only be computed by
 * nodes before it (`prelude`), which only falling through runs (`callPlaceholders` says where).
 */
export interface NodeParts {
  prelude: Stmt[];
  setup: SetupCode[];
  callPlaceholders: Loc[];
}

/** Where a string field of code was written. */
export interface CodeAt {
  loc: Loc;
  /**
   * The code and the column of its first character, when the literal holds the code character
   * for character on one line (no escapes): then a problem at an offset in it has a column.
   */
  exact?: { column: number; code: string };
}

/** One graph node from an agent call: exec_node, a shorthand, or this.f(...). */
export interface NodeStmt {
  kind: "node";
  loc: Loc;
  /** Names the construct in automatic names (`chat`, `call_doUnit`, ...). */
  construct: string;
  /** Text the automatic name is hashed from: the call's own source text. */
  key: string;
  name?: string;
  fields: NodeFieldsIR;
  assign?: string;
  /** Explicit transitions were written (else the node continues with the next statement). */
  explicitTransitions: boolean;
  /** Where the name, each transition and the condition were written, for diagnostics found while lowering. */
  fieldLocs?: { name?: Loc; transitions?: Loc[]; condition?: CodeAt };
  defType: string;
  /** Placeholder values the node computes on entry (the graph's `setup`). */
  setup?: SetupCode[];
  /** Where placeholders needing an agent call are, computed before the node (in the prelude). */
  callPlaceholders?: Loc[];
}

export interface CodeStmt {
  kind: "code";
  loc: Loc;
  key: string;
  code: string;
}

export interface ReturnStmt {
  kind: "return";
  loc: Loc;
  key: string;
  /** null: `return;`. A node: `return thought(...)`, whose output is the value. */
  value: null | Expr | { prelude: Stmt[]; node: NodeStmt };
}

export interface IfBranch {
  /** null for the final else. */
  test: Expr | null;
  body: Stmt[];
  loc: Loc;
}

export interface IfStmt {
  kind: "if";
  loc: Loc;
  key: string;
  /** Names the construct: `if`, or `and` / `or` / `nullish` / `ternary` for an agent call a short-circuit guards. */
  construct?: string;
  branches: IfBranch[];
}

interface LoopBase {
  loc: Loc;
  key: string;
  labels: string[];
  body: Stmt[];
}

export interface WhileStmt extends LoopBase {
  kind: "while" | "do_while";
  test: Expr;
}

export interface ForStmt extends LoopBase {
  kind: "for";
  init: Stmt[];
  test: Expr | null;
  update: Stmt[];
}

/** for...of, and for...in (whose iterable is `Object.keys(...)`). */
export interface ForOfStmt extends LoopBase {
  kind: "for_of";
  construct: "for_of" | "for_in";
  iterable: Expr;
  /** Assignment target of each item: a name or a destructuring pattern. */
  target: string;
  /** Set when the loop declares its variable (`for (const x of ...)`). */
  declare?: "let" | "const";
}

export interface SwitchClause {
  test: Expr | null;
  body: Stmt[];
  loc: Loc;
}

export interface SwitchStmt {
  kind: "switch";
  loc: Loc;
  key: string;
  labels: string[];
  discriminant: Expr;
  clauses: SwitchClause[];
}

export interface JumpStmt {
  kind: "break" | "continue";
  loc: Loc;
  label?: string;
}

/** A labelled block: only `break label` leaves it. */
export interface BlockStmt {
  kind: "block";
  loc: Loc;
  labels: string[];
  body: Stmt[];
}

export type Stmt =
  | NodeStmt
  | CodeStmt
  | ReturnStmt
  | IfStmt
  | WhileStmt
  | ForStmt
  | ForOfStmt
  | SwitchStmt
  | JumpStmt
  | BlockStmt;
