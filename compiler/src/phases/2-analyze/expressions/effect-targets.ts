import type TS from "typescript";
import type { ActionInfo } from "@autograms/graph";
import { typescript } from "../../1-parse/typescript.js";
import { report, type FunctionContext } from "../context.js";

/**
 * A custom node writes the variables its action's `effects.assign` names, in the scope it runs
 * in, when its instruction hook returns them. Each must be a variable the agent can then read
 * there: a parameter or `let` local of the function, or (outside a @localFunction, which sees
 * none) a class field. Anything else would write a variable no TypeScript code of the agent can
 * name, or one TypeScript believes constant; it is refused at the exec_node call.
 */
export function checkEffectTargets(action: string, info: ActionInfo, call: TS.Node, ctx: FunctionContext): void {
  const { method } = ctx;
  for (const name of info.effects?.assign ?? []) {
    if (ctx.locals.has(name)) {
      if (isConst(name, ctx)) report(ctx, "effect_variable", "const_local", call, { action, name });
      continue;
    }
    if (ctx.agent.fields.has(name) && method.kind !== "local_function") {
      if (method.kind === "function" && !method.kindUnknown)
        report(ctx, "global_write_dropped", "written_by_node", call, { name, method: method.name, action });
      continue;
    }
    const where = method.kind === "main" ? "main()" : `'${method.name}'`;
    const hint =
      method.kind === "local_function"
        ? `declare it in '${method.name}' (let ${name} = ...): a @localFunction sees no class fields`
        : method.kind === "main"
          ? `declare it as a class field (${name} = ...) or a local of main() (let ${name} = ...)`
          : `declare it in '${method.name}' (let ${name} = ...) or as a class field`;
    report(ctx, "effect_variable", "not_a_variable", call, { action, name, method: where, hint });
  }
}

/** Whether the function declares the local with const (its one declaration: locals do not shadow). */
function isConst(name: string, ctx: FunctionContext): boolean {
  const ts = typescript();
  let found = false;
  const binds = (binding: TS.BindingName): boolean =>
    ts.isIdentifier(binding)
      ? binding.text === name
      : binding.elements.some((e) => !ts.isOmittedExpression(e) && binds(e.name));
  const visit = (node: TS.Node): void => {
    if (found || ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return;
    if (ts.isVariableDeclarationList(node) && node.flags & ts.NodeFlags.Const) {
      if (node.declarations.some((d) => binds(d.name))) found = true;
    }
    ts.forEachChild(node, visit);
  };
  if (ctx.method.decl.body) visit(ctx.method.decl.body);
  return found;
}
