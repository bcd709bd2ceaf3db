import type TS from "typescript";
import { typescript } from "../../1-parse/typescript.js";
import { RUNTIME_MODULE, report, type FunctionContext } from "../context.js";
import { skipTypeWrappers } from "../literal.js";

/**
 * The `tools` node field: the tools the model may call natively, written as the imported
 * functions (`tools: [calculator, lookup]`, which the type checker sees) or as their names.
 * Each must be a tool the agent imports; the graph lists them by name.
 */
export function toolsField(node: TS.Expression, ctx: FunctionContext): string[] | undefined {
  const ts = typescript();
  const list = skipTypeWrappers(node);
  if (!ts.isArrayLiteralExpression(list)) {
    report(ctx, "non_literal_field", "'tools' must be an array literal of imported tools, as in tools: [calculator, lookup]", node);
    return undefined;
  }
  const names: string[] = [];
  let valid = true;
  for (const element of list.elements) {
    const item = ts.isSpreadElement(element) ? element : skipTypeWrappers(element);
    const name = ts.isIdentifier(item) || ts.isStringLiteralLike(item) ? item.text : null;
    const tool = name === null ? undefined : ctx.agent.tools.get(name);
    if (name === null) {
      report(ctx, "non_literal_field", "each of 'tools' is an imported tool or its name", element);
      valid = false;
    } else if (!tool || tool.module === RUNTIME_MODULE) {
      report(ctx, "invalid_field_value", `'${name}' is not a tool: 'tools' lists functions the agent imports from its tool modules`, element);
      valid = false;
    } else if (names.includes(name)) {
      report(ctx, "invalid_field_value", `'tools' lists '${name}' twice`, element);
      valid = false;
    } else {
      ctx.agent.usedTools.add(name);
      names.push(name);
    }
  }
  if (valid && names.length === 0) report(ctx, "invalid_field_value", "'tools' needs at least one tool", node);
  return valid && names.length ? names : undefined;
}
