import type TS from "typescript";
import { LOOP_PREFIX, TEMP_PREFIX } from "../../compiler-variables.js";
import { didYouMean } from "../../diagnostics/suggest.js";
import { typescript } from "../1-parse/typescript.js";
import { AUTOMATIC_VARIABLE_NAMES, UNSAFE_NAME, report, type FunctionContext } from "./context.js";
import { thisMember } from "./literal.js";

/**
 * A function's variables share one scope at run time (the original's model), so block scoping
 * is checked here: a declaration may not shadow another of the same function, and the names
 * that would mean something else at run time (fields, automatic variables) are refused.
 * Fills `ctx.locals`.
 */
export function analyzeScope(ctx: FunctionContext): void {
  const ts = typescript();
  const { method } = ctx;
  const blocks: Set<string>[] = [new Set(method.params)];
  const declared = new Map<string, TS.Identifier>();
  const fieldsRead = new Set<string>();
  /** Each this.x of a local function: one mistake (its decorator, most often), reported once. */
  const thisInLocal: { access: TS.PropertyAccessExpression; name: string }[] = [];
  for (const p of method.params) ctx.locals.add(p);

  const declare = (name: TS.Identifier) => {
    const text = name.text;
    if (AUTOMATIC_VARIABLE_NAMES.has(text) || text.startsWith(TEMP_PREFIX) || text.startsWith(LOOP_PREFIX)) {
      report(ctx, "reserved_name", "choose_another", name, {
        text,
        detail: AUTOMATIC_VARIABLE_NAMES.has(text) ? "an automatic variable" : "the compiler's own variables",
      });
      return;
    }
    if (text === UNSAFE_NAME) {
      report(ctx, "unsafe_name", "variable_cannot", name, { unsafeName: UNSAFE_NAME });
      return;
    }
    if (blocks.some((b) => b.has(text))) {
      report(ctx, "shadowed_variable", "shadows_name", name, { text });
      return;
    }
    blocks[blocks.length - 1]!.add(text);
    ctx.locals.add(text);
    if (!declared.has(text)) declared.set(text, name);
  };

  const declareBinding = (binding: TS.BindingName) => {
    if (ts.isIdentifier(binding)) declare(binding);
    else for (const element of binding.elements) if (!ts.isOmittedExpression(element)) declareBinding(element.name);
  };

  const checkThisAccess = (access: TS.PropertyAccessExpression, name: string) => {
    // Calls are checked where they are analyzed, with their arguments.
    if (
      ctx.agent.methods.has(name) ||
      ctx.agent.refusedMethods.has(name) ||
      (ts.isCallExpression(access.parent) && access.parent.expression === access)
    )
      return;
    const write = isWriteTarget(access);
    if (AUTOMATIC_VARIABLE_NAMES.has(name)) {
      if (write) report(ctx, "reserved_name", "automatic_variable_runtime_sets", access, { name });
      return;
    }
    if (!ctx.agent.fields.has(name)) {
      const hint = didYouMean(name, [...ctx.agent.fields.keys(), ...ctx.agent.methods.keys()]);
      report(ctx, "unknown_member", "no_member", access.name, { name, hint });
      return;
    }
    fieldsRead.add(name);
    if (method.kindUnknown) return;
    if (method.kind === "local_function") {
      thisInLocal.push({ access, name });
    } else if (method.kind === "function" && write) {
      report(ctx, "global_write_dropped", "written_func", access, { name, method: method.name });
    }
  };

  // Callbacks (arrow functions passed to map, filter, ...) run inside one code node: their
  // parameters and locals are the evaluator's, not the function's.
  const visit = (node: TS.Node, inCallback: boolean): void => {
    const member = thisMember(node);
    if (member !== null) {
      checkThisAccess(node as TS.PropertyAccessExpression, member);
      return;
    }
    if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) {
      ts.forEachChild(node, (child) => visit(child, true));
      return;
    }
    if (!inCallback && ts.isVariableDeclaration(node)) {
      if (node.initializer) visit(node.initializer, inCallback);
      declareBinding(node.name);
      return;
    }
    const scoped =
      !inCallback &&
      (ts.isBlock(node) ||
        ts.isForStatement(node) ||
        ts.isForOfStatement(node) ||
        ts.isForInStatement(node) ||
        ts.isCaseBlock(node));
    if (scoped) blocks.push(new Set());
    ts.forEachChild(node, (child) => visit(child, inCallback));
    if (scoped) blocks.pop();
  };
  if (method.decl.body) ts.forEachChild(method.decl.body, (child) => visit(child, false));
  const [first, ...more] = thisInLocal;
  if (first) {
    const others = more.length === 0 ? "" : ` (and ${more.length} more use${more.length === 1 ? "" : "s"} of this)`;
    report(ctx, "this_in_local_function", "run_time", first.access, { name: first.name, method: method.name, others });
  }

  for (const [name, node] of declared) {
    if (!ctx.agent.fields.has(name)) continue;
    if (method.kind === "main") {
      report(ctx, "local_shadows_field", "main_name", node, { name });
    } else if (method.kind === "global_function") {
      report(ctx, "local_shadows_field", "globalfunction_name", node, { name, method: method.name });
    } else if (fieldsRead.has(name) && !first) {
      report(ctx, "local_shadows_field", "uses_both", node, { method: method.name, name });
    }
  }
  for (const param of method.decl.parameters) {
    if (!ts.isIdentifier(param.name) || !ctx.agent.fields.has(param.name.text)) continue;
    if (method.kind === "global_function" || (fieldsRead.has(param.name.text) && !first)) {
      report(ctx, "local_shadows_field", "parameter_name", param.name, { param: param.name.text, method: method.name });
    }
  }
}

/** Whether an expression is written to (assigned, incremented, destructured into). */
export function isWriteTarget(node: TS.Expression): boolean {
  const ts = typescript();
  let child: TS.Node = node;
  let parent = node.parent;
  while (ts.isParenthesizedExpression(parent) || ts.isNonNullExpression(parent) || ts.isAsExpression(parent)) {
    child = parent;
    parent = parent.parent;
  }
  if (ts.isBinaryExpression(parent) && parent.left === child) {
    const op = parent.operatorToken.kind;
    return op >= ts.SyntaxKind.FirstAssignment && op <= ts.SyntaxKind.LastAssignment;
  }
  if (ts.isPrefixUnaryExpression(parent) || ts.isPostfixUnaryExpression(parent)) {
    return parent.operator === ts.SyntaxKind.PlusPlusToken || parent.operator === ts.SyntaxKind.MinusMinusToken;
  }
  return false;
}
