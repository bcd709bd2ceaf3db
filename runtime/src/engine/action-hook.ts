/**
 * A custom action's hook, asked for: the step never runs one; it fills in the node's fields and
 * instruction and hands them to the loop (an `action` effect, as a tool call is one).
 */
import type { JsonValue } from "@autograms/graph";
import type { Env } from "./env.js";
import type { CompiledNode, FieldTemplate } from "./program.js";
import { undefinedVariables } from "./render.js";
import { moved, result } from "./result.js";
import { lookupVar } from "./scope.js";
import type { ActionHook, Phase, RunState, StepResult } from "./state.js";
import { renderTemplate } from "./template.js";

/** Asks the loop to run one hook of the node's action, on its fields as they read now. */
export function runHook(
  env: Env,
  state: RunState,
  cn: CompiledNode,
  hook: ActionHook,
  output: JsonValue,
  interject: boolean,
): StepResult {
  const node = cn.node;
  const lookup = (n: string) => lookupVar(state.mem.stack, n);
  const fields: Record<string, JsonValue> = {};
  for (const [field, template] of Object.entries(cn.custom!.fields))
    fields[field] = fill(env, cn, field, template, lookup);
  const instruction = cn.text
    ? (fill(env, cn, "instruction", { kind: "text", template: cn.text }, lookup) as string)
    : "";
  const phase: Phase = { kind: "acting", node: node.name, hook, instruction, output, interject };
  return result(moved(state, state.mem, phase), null, {
    kind: "action",
    node: node.name,
    hook,
    fields,
    instruction,
    output,
  });
}

function fill(
  env: Env,
  cn: CompiledNode,
  field: string,
  t: FieldTemplate,
  lookup: (n: string) => JsonValue | undefined,
): JsonValue {
  switch (t.kind) {
    case "value":
      return t.value;
    case "list":
      return t.items.map((i) => fill(env, cn, field, i, lookup));
    case "object":
      return Object.fromEntries(t.entries.map(([k, v]) => [k, fill(env, cn, field, v, lookup)]));
    case "text": {
      const r = renderTemplate(t.template, lookup);
      if (!r.ok) throw undefinedVariables(env, cn.node, field, r.missing);
      return r.text;
    }
  }
}
