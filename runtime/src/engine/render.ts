/** A node's templates (its instruction, its transition question) filled in from the variables in scope. */
import type { AgentError } from "../errors.js";
import type { GraphNode } from "@autograms/graph";
import { fail, type Env } from "./env.js";
import { lookupVar } from "./scope.js";
import type { RunState } from "./state.js";
import { renderTemplate, type Template } from "./template.js";

export function render(
  env: Env,
  state: RunState,
  node: GraphNode,
  template: Template | undefined,
  field = "instruction",
): string {
  if (!template) return "";
  if (template.constant) return template.segments.length ? (template.segments[0] as { text: string }).text : "";
  const r = renderTemplate(template, (n) => lookupVar(state.mem.stack, n));
  if (!r.ok) throw undefinedVariables(env, node, field, r.missing);
  return r.text;
}

/** The error of a field whose template names variables that are not defined. */
export function undefinedVariables(env: Env, node: GraphNode, field: string, missing: string[]): AgentError {
  return fail(
    env,
    node,
    "undefined_variable",
    `${field} uses undefined variable${missing.length > 1 ? "s" : ""} ${missing.map((m) => `$${m}`).join(", ")}`,
  );
}
