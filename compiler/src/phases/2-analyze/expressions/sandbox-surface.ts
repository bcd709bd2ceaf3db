import type TS from "typescript";
import { SANDBOX_SURFACE } from "@autograms/runtime";
import { typescript } from "../../1-parse/typescript.js";
import { report, type FunctionContext } from "../context.js";
import { skipTypeWrappers } from "../literal.js";

/**
 * Agent code runs in the evaluator, which offers exactly what `SANDBOX_SURFACE` lists (the
 * tables its built-ins dispatch on). What it does not offer would compile and then fail when
 * the node runs; it is refused here instead, at its column, with what to use.
 */

const REGEXP_HINT = "regular expressions are not available in agent code; use includes, startsWith, endsWith, indexOf, split or replaceAll, or a tool";

/** What to use instead of a JavaScript global the evaluator leaves out. */
const GLOBAL_HINTS: Record<string, string> = {
  performance: "Date.now() gives the turn's time in milliseconds (one value for the whole turn, recorded with the run); time work inside a tool",
  process: "agent code cannot read the environment or the process: read it in a tool module",
  RegExp: REGEXP_HINT,
  Map: "use a plain object (keys are strings) or an array of pairs",
  Set: "use an array (includes, filter) or an object's keys",
  Promise: "agent code is synchronous: a tool may be async, and the runtime awaits it",
  fetch: "call a tool that fetches",
  require: "import functions from a tool module at the top of the file",
};

const METHOD_HINTS: Record<string, string> = {
  match: REGEXP_HINT, matchAll: REGEXP_HINT, search: REGEXP_HINT, test: REGEXP_HINT, exec: REGEXP_HINT,
  entries: "arrays have no iterators here: use Object.entries(xs), or xs.map((x, i) => [i, x])",
  keys: "arrays have no iterators here: use Object.keys(xs), or xs.map((_, i) => i)",
  values: "arrays have no iterators here: use the array itself, or Object.values(o) for an object",
  hasOwnProperty: "use Object.hasOwn(o, key)",
};

let ALL_METHODS: ReadonlySet<string> | undefined;

/** Every method some kind of value has: a call of any other can never run. */
function allMethods(): ReadonlySet<string> {
  ALL_METHODS ??= new Set(Object.values(SANDBOX_SURFACE.methods).flatMap((methods) => [...methods]));
  return ALL_METHODS;
}

/** What `new X(...)` is refused with: the evaluator builds values from literals only. */
const NEW_HINTS: Record<string, string> = {
  Date: "agent code has no Date objects: Date.now() gives the turn's time in milliseconds; format a date in a tool",
  Array: "write an array literal, or Array.from({ length: n }, (_, i) => ...)",
  Object: "write an object literal",
};

/** The hint for `new <name>(...)`. */
export function newHint(name: string): string {
  return NEW_HINTS[name] ?? GLOBAL_HINTS[name] ?? "build values from literals, or call a tool";
}

/** A global the evaluator leaves out, read as a value where the agent does not declare it. */
export function checkGlobal(node: TS.Identifier, ctx: FunctionContext): void {
  const name = node.text;
  if (!SANDBOX_SURFACE.unavailable.has(name) || ctx.locals.has(name) || boundByCallback(node)) return;
  const ts = typescript();
  const parent = node.parent;
  const used = ts.isPropertyAccessExpression(parent) && parent.expression === node ? `${name}.${parent.name.text}` : name;
  const hint = GLOBAL_HINTS[name] ?? "agent code runs in a sandbox without it";
  report(ctx, "unsupported_syntax", "not_available", ts.isPropertyAccessExpression(parent) && parent.expression === node ? parent : node, { used, hint });
}

/** `ns.f(...)` and `value.method(...)`: a member the evaluator has. */
export function checkCallee(node: TS.CallExpression, ctx: FunctionContext): void {
  const ts = typescript();
  const callee = skipTypeWrappers(node.expression);
  if (!ts.isPropertyAccessExpression(callee) || !ts.isIdentifier(callee.name)) return;
  const member = callee.name.text;
  const object = skipTypeWrappers(callee.expression);
  // A regular expression or `new` receiver is refused as such: one mistake, one error.
  if (object.kind === ts.SyntaxKind.ThisKeyword || object.kind === ts.SyntaxKind.RegularExpressionLiteral || ts.isNewExpression(object)) return;
  if (ts.isIdentifier(object)) {
    if (SANDBOX_SURFACE.unavailable.has(object.text) && !ctx.locals.has(object.text)) return; // checkGlobal says it
    const namespace = SANDBOX_SURFACE.namespaces.get(object.text);
    if (namespace && !ctx.locals.has(object.text) && !boundByCallback(object)) {
      if (namespace.functions.has(member)) return;
      const offered = [...namespace.functions].join(", ");
      report(ctx, "unsupported_syntax", "not_available_agent", callee, { object: object.text, member, offered });
      return;
    }
  }
  if (allMethods().has(member)) return;
  const hint = METHOD_HINTS[member] ?? "no value has such a method here (strings, numbers and arrays have the usual ones; an object's properties are data, never functions)";
  report(ctx, "unsupported_syntax", "not_available_agent_code", callee.name, { member, hint });
}

/** Whether a callback (an arrow or function expression around the node) declares the name. */
function boundByCallback(node: TS.Identifier): boolean {
  const ts = typescript();
  for (let at: TS.Node | undefined = node.parent; at && !ts.isMethodDeclaration(at); at = at.parent) {
    if ((ts.isArrowFunction(at) || ts.isFunctionExpression(at)) && at.parameters.some((p) => binds(p.name, node.text))) return true;
  }
  return false;
}

function binds(name: TS.BindingName, text: string): boolean {
  const ts = typescript();
  if (ts.isIdentifier(name)) return name.text === text;
  return name.elements.some((e) => !ts.isOmittedExpression(e) && binds(e.name, text));
}
