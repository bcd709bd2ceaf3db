import type TS from "typescript";
import { allMethods, globalHint, methodHint, SANDBOX_SURFACE, unknownFunctionHint } from "@autograms/sandbox";
import { typescript } from "../../1-parse/typescript.js";
import { report, type FunctionContext } from "../context.js";
import { skipTypeWrappers } from "../literal.js";

/**
 * Agent code runs in the evaluator, which offers exactly what `SANDBOX_SURFACE` lists (the
 * tables its built-ins dispatch on). What it does not offer would compile and then fail when
 * the node runs; it is refused here instead, at its column, with what to use.
 */

/** What `new X(...)` is refused with: the evaluator builds values from literals only. */
const NEW_HINTS: Record<string, string> = {
  Date: "agent code has no Date objects: Date.now() gives the turn's time in milliseconds; format a date in a tool",
  Array: "write an array literal, or Array.from({ length: n }, (_, i) => ...)",
  Object: "write an object literal",
};

/** The hint for `new <name>(...)`. */
export function newHint(name: string): string {
  return NEW_HINTS[name] ?? globalHint(name, "build values from literals, or call a tool");
}

/**
 * A name the agent does not declare: a global the evaluator leaves out, read as a value, or a
 * function called that is neither the evaluator's nor a tool (`encodeURIComponent` is offered;
 * `btoa`, or a name that exists nowhere, would fail when the node runs).
 */
export function checkGlobal(node: TS.Identifier, ctx: FunctionContext): void {
  const name = node.text;
  if (ctx.locals.has(name) || boundByCallback(node)) return;
  const ts = typescript();
  const parent = node.parent;
  if (!SANDBOX_SURFACE.unavailable.has(name)) {
    const called = ts.isCallExpression(parent) && skipTypeWrappers(parent.expression) === node;
    if (called && !SANDBOX_SURFACE.globals.has(name)) {
      report(ctx, "unsupported_syntax", "not_a_function", node, {
        name,
        hint: unknownFunctionHint(SANDBOX_SURFACE.globals),
      });
    }
    return;
  }
  const member = ts.isPropertyAccessExpression(parent) && parent.expression === node;
  report(ctx, "unsupported_syntax", "not_available", member ? parent : node, {
    used: member ? `${name}.${parent.name.text}` : name,
    hint: globalHint(name),
  });
}

/** `ns.f(...)` and `value.method(...)`: a member the evaluator has. */
export function checkCallee(node: TS.CallExpression, ctx: FunctionContext): void {
  const ts = typescript();
  const callee = skipTypeWrappers(node.expression);
  if (!ts.isPropertyAccessExpression(callee) || !ts.isIdentifier(callee.name)) return;
  const member = callee.name.text;
  const object = skipTypeWrappers(callee.expression);
  // A regular expression or `new` receiver is refused as such: one mistake, one error.
  if (
    object.kind === ts.SyntaxKind.ThisKeyword ||
    object.kind === ts.SyntaxKind.RegularExpressionLiteral ||
    ts.isNewExpression(object)
  )
    return;
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
  report(ctx, "unsupported_syntax", "not_available_agent_code", callee.name, { member, hint: methodHint(member) });
}

/** Whether a callback (an arrow or function expression around the node) declares the name. */
function boundByCallback(node: TS.Identifier): boolean {
  const ts = typescript();
  for (let at: TS.Node | undefined = node.parent; at && !ts.isMethodDeclaration(at); at = at.parent) {
    if ((ts.isArrowFunction(at) || ts.isFunctionExpression(at)) && at.parameters.some((p) => binds(p.name, node.text)))
      return true;
  }
  return false;
}

function binds(name: TS.BindingName, text: string): boolean {
  const ts = typescript();
  if (ts.isIdentifier(name)) return name.text === text;
  return name.elements.some((e) => !ts.isOmittedExpression(e) && binds(e.name, text));
}
