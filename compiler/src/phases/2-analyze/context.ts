import type TS from "typescript";
import { RUNTIME_TOOLS, type ActionInfo, type FunctionKind, type Loc, type ToolInfo } from "@autograms/graph";
import type { ReadFile } from "./action-module.js";
import type { Analyzed, Expr, Stmt } from "./ir.js";
import type { DiagnosticCode, MessageArgs, MessageName } from "../../diagnostics/catalogue.js";
import type { Diagnostics } from "../../diagnostics/diagnostic.js";
import { locOf } from "../1-parse/loc.js";

export { RUNTIME_MODULE } from "@autograms/graph";

/** Exports of the runtime that agent code calls as tools (the runtime supplies them). */
export function isRuntimeTool(exported: string): boolean {
  return (RUNTIME_TOOLS as readonly string[]).includes(exported);
}

/** Variables the runtime sets in every scope; agents read them as `this._last_user_reply`, ... */
export { AUTOMATIC_VARIABLE_NAMES } from "@autograms/graph";

/**
 * `__proto__` is no plain key: assigned to an object, JavaScript makes the value the object's
 * prototype, so a variable of that name would vanish from memory (or replace its prototype).
 */
export const UNSAFE_NAME = "__proto__";

export interface MethodInfo {
  name: string;
  kind: FunctionKind | "main";
  params: string[];
  /** Each parameter's default as evaluator code (a JSON literal), where it has one. */
  defaults: (string | undefined)[];
  /** Parameters before the first optional one. */
  minArgs: number;
  decl: TS.MethodDeclaration;
  loc: Loc;
  /** Its decorator was unknown (reported): the kind is a guess, so nothing that depends on it is reported. */
  kindUnknown?: true;
}

/** What the whole file tells every function being analyzed. */
export interface AgentContext {
  file: TS.SourceFile;
  diagnostics: Diagnostics;
  fields: Map<string, Loc>;
  methods: Map<string, MethodInfo>;
  /**
   * Methods declared but refused (async, a generator, no body): already reported, so calls and
   * reads of them report nothing more.
   */
  refusedMethods: Set<string>;
  /** Local name of each agent-language import -> its exported name (`chat`, `exec_node`, ...). */
  api: Map<string, string>;
  tools: Map<string, ToolInfo>;
  usedTools: Set<string>;
  /** Reads the modules custom actions are imported from (never runs them). */
  readFile: ReadFile;
  /** Custom actions read so far, by local import name (null: could not be read, already reported). */
  actions: Map<string, { name: string; info: ActionInfo } | null>;
  /** The custom actions nodes use, by action name, as the graph records them. */
  usedActions: Map<string, ActionInfo>;
}

/**
 * The dispatchers of statements and expressions, reached through the context (as Svelte's visitors
 * call `context.visit`): a visitor whose construct nests others calls these instead of importing
 * the dispatcher that imports it, so the visitors form no import cycle.
 */
export interface Visitors {
  /** Analyzes statements in order, appending what they become to `out`. */
  statements(statements: readonly TS.Statement[], ctx: FunctionContext, out?: Stmt[]): Stmt[];
  /** A statement used as a body (`while (c) x++;` as well as `while (c) { ... }`). */
  body(statement: TS.Statement, ctx: FunctionContext): Stmt[];
  /** `labels`: the labels written in front of the statement (`outer: for (...)`). */
  statement(node: TS.Statement, ctx: FunctionContext, out: Stmt[], labels: string[]): void;
  expression(node: TS.Expression, ctx: FunctionContext): Analyzed;
  /** The expression as a value: an agent call's output goes to a temporary first. */
  expressionValue(node: TS.Expression, ctx: FunctionContext): Expr;
}

/** The function being analyzed. */
export interface FunctionContext {
  agent: AgentContext;
  visit: Visitors;
  method: MethodInfo;
  /** Parameters and every local of the function: one flat scope at run time. */
  locals: Set<string>;
  /** Temporaries already handed out, for names that stay the same when other code changes. */
  temps: Map<string, number>;
}

/** Message `name` of diagnostic `code` (see the catalogue), at `node`. */
export function report<C extends DiagnosticCode, M extends MessageName<C>>(
  ctx: FunctionContext | AgentContext,
  code: C,
  name: M,
  node: TS.Node,
  ...args: MessageArgs<C, M>
): void {
  const agent = "agent" in ctx ? ctx.agent : ctx;
  agent.diagnostics.report(code, name, locOf(node, agent.file), ...args);
}

export function loc(ctx: FunctionContext, node: TS.Node): Loc {
  return locOf(node, ctx.agent.file);
}

/** Source text of a node with whitespace runs collapsed: what automatic names are hashed from. */
export function keyOf(ctx: FunctionContext, node: TS.Node): string {
  return node.getText(ctx.agent.file).replace(/\s+/g, " ");
}
