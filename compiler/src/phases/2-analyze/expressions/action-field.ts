import type TS from "typescript";
import {
  actionDeclarationProblems,
  nodeFieldProblems,
  recordedEffects,
  type ActionInfo,
  type JsonValue,
} from "@autograms/graph";
import { typescript } from "../../1-parse/typescript.js";
import { readActionDeclaration } from "../action-module.js";
import { RUNTIME_MODULE, report, type FunctionContext } from "../context.js";
import { skipTypeWrappers } from "../literal.js";

/**
 * `action: confirm`, where `confirm` is imported from an action module: the action's name, with
 * its declaration read from the module (once per import) and recorded for the graph. Undefined
 * after reporting why not.
 */
export function customAction(
  value: TS.Expression,
  ctx: FunctionContext,
): { name: string; info: ActionInfo } | undefined {
  const ts = typescript();
  const id = skipTypeWrappers(value);
  if (!ts.isIdentifier(id)) return undefined;
  const imported = ctx.agent.tools.get(id.text);
  if (!imported || imported.module === RUNTIME_MODULE) {
    report(ctx, "unknown_action", "not_custom", value, { id: id.text });
    return undefined;
  }
  let known = ctx.agent.actions.get(id.text);
  if (known === undefined) {
    const read = readActionDeclaration(imported.module, imported.export, ctx.agent.file.fileName, ctx.agent.readFile);
    if (!read.ok) {
      report(ctx, "invalid_action_definition", "unreadable", value, { id: id.text, problem: read.message });
      known = null;
    } else {
      const problems = actionDeclarationProblems(read.name, read.info);
      for (const p of problems)
        report(ctx, "invalid_action_definition", "defineaction", value, {
          id: id.text,
          module: imported.module,
          problem: p.message,
        });
      const { effects, ...rest } = read.info;
      const recorded = recordedEffects(effects);
      known = problems.length
        ? null
        : {
            name: read.name,
            info: { module: imported.module, export: imported.export, ...rest, ...(recorded && { effects: recorded }) },
          };
    }
    ctx.agent.actions.set(id.text, known);
  }
  if (!known) return undefined;
  const other = ctx.agent.usedActions.get(known.name);
  if (other && (other.module !== known.info.module || other.export !== known.info.export)) {
    report(ctx, "invalid_action_definition", "two_actions", value, {
      known: known.name,
      export: other.export,
      module: other.module,
      id: id.text,
    });
    return undefined;
  }
  ctx.agent.usedActions.set(known.name, known.info);
  return known;
}

/** The action's own fields of a node, checked against its schemas; each problem reported where the field is written. */
export function checkCustomFields(
  action: string,
  info: ActionInfo,
  own: Record<string, JsonValue>,
  written: ReadonlySet<string>,
  at: Record<string, TS.Node>,
  whole: TS.Node,
  ctx: FunctionContext,
): void {
  for (const p of nodeFieldProblems(action, info, own)) {
    // A field written with a value already reported is not missing too.
    if (p.kind === "missing" && written.has(p.field!)) continue;
    const code =
      p.kind === "unknown" ? "unknown_field" : p.kind === "missing" ? "missing_field" : "invalid_field_value";
    report(ctx, code, "action_schema", (p.field !== undefined ? at[p.field] : undefined) ?? whole, {
      problem: p.message,
    });
  }
}
