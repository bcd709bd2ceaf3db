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
    report(ctx, "non_literal_field", "tools_must", node);
    return undefined;
  }
  const names: string[] = [];
  let valid = true;
  for (const element of list.elements) {
    const item = ts.isSpreadElement(element) ? element : skipTypeWrappers(element);
    const name = ts.isIdentifier(item) || ts.isStringLiteralLike(item) ? item.text : null;
    const tool = name === null ? undefined : ctx.agent.tools.get(name);
    if (name === null) {
      report(ctx, "non_literal_field", "tools_imported", element);
      valid = false;
    } else if (!tool || tool.module === RUNTIME_MODULE) {
      report(ctx, "invalid_field_value", "not_tool", element, { name });
      valid = false;
    } else if (names.includes(name)) {
      report(ctx, "invalid_field_value", "tools_lists", element, { name });
      valid = false;
    } else {
      ctx.agent.usedTools.add(name);
      names.push(name);
    }
  }
  if (valid && names.length === 0) report(ctx, "invalid_field_value", "tools_needs", node);
  return valid && names.length ? names : undefined;
}
