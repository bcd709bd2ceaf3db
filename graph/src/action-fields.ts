/**
 * The checks of custom actions that the compiler, `validateGraph` and the Agent share: what an
 * action may declare (`ActionInfo`), and whether a node's fields fit its action's JSON Schemas.
 */
import { validatorOf } from "./json-schemas.js";
import type { ActionEffects, ActionInfo } from "./types.js";
import {
  ACTION_NAME,
  AUTOMATIC_PREFIX,
  BASE_ACTIONS,
  EFFECT_FLAG_NAMES,
  FUNCTION_KINDS,
  isBuiltinAction,
  NODE_FIELD_NAMES,
  VARIABLE_NAME,
} from "./vocabulary/index.js";

/** One problem with an action's declaration or a node's fields; `field` names the field concerned. */
export interface FieldProblem {
  field?: string;
  /** For a node's fields: a field the action does not declare, a required one missing, or a value its schema refuses. */
  kind?: "unknown" | "missing" | "invalid";
  message: string;
}

const NAME = new RegExp(ACTION_NAME);

/**
 * What is wrong with an action's name, base and field declarations (nothing: []). `schemas`:
 * also compile each field's schema (defineAction leaves that to the compiler and validateGraph,
 * since an action module may run where the schema compiler cannot be loaded from).
 */
export function actionDeclarationProblems(
  name: string,
  info: Pick<ActionInfo, "base" | "fields" | "required"> & { effects?: unknown },
  schemas = true,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (!NAME.test(name))
    problems.push({ message: `'${name}' cannot name an action: use letters, digits and _, not starting with a digit` });
  else if (isBuiltinAction(name))
    problems.push({ message: `'${name}' is a built-in action; a custom action needs a name of its own` });
  if ((FUNCTION_KINDS as readonly string[]).includes(info.base as string)) {
    // The original's FunctionNode is the call mechanism itself (reached twice: to call, then on
    // the return); here a call is made by the step from the graph's functions table.
    problems.push({
      message: `base '${info.base}' cannot be inherited: a call node's behaviour is the call itself (arguments into a new scope, the callee's entry, the return into the caller), which no hook can replace or extend without breaking the scope rules; put a custom node right after the call, reading its value (its output hook transforms it, its transition hook chooses the way on)`,
    });
  } else if (info.base !== undefined && !(BASE_ACTIONS as readonly string[]).includes(info.base)) {
    problems.push({
      message: `base '${String(info.base)}' is not an action to inherit from: use one of ${BASE_ACTIONS.join(", ")}`,
    });
  }
  const fields = info.fields ?? {};
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) {
    problems.push({ message: "fields must be an object of JSON Schemas, one per field" });
    return problems;
  }
  for (const [field, schema] of Object.entries(fields)) {
    if (NODE_FIELD_NAMES.has(field)) {
      problems.push({
        field,
        message: `field '${field}' is a field of every node; an action declares only fields of its own`,
      });
      continue;
    }
    if (!NAME.test(field))
      problems.push({ field, message: `'${field}' cannot name a field: use letters, digits and _` });
    const shaped =
      typeof schema === "boolean" || (typeof schema === "object" && schema !== null && !Array.isArray(schema));
    const v = !shaped ? "it must be an object" : schemas ? validatorOf(schema) : undefined;
    if (typeof v === "string")
      problems.push({ field, message: `the JSON Schema of field '${field}' is not valid: ${v}` });
  }
  for (const field of info.required ?? []) {
    if (!Object.hasOwn(fields, field))
      problems.push({ field, message: `required field '${field}' is not one of the action's fields` });
  }
  problems.push(...effectsProblems(info.effects));
  return problems;
}

const VARIABLE = new RegExp(VARIABLE_NAME);

/** What is wrong with an action's `effects` declaration (nothing: []). */
export function effectsProblems(effects: unknown): FieldProblem[] {
  if (effects === undefined) return [];
  const shape = `{ ${[...EFFECT_FLAG_NAMES, "assign"].map((k) => `${k}?`).join(", ")} }`;
  if (typeof effects !== "object" || effects === null || Array.isArray(effects))
    return [{ message: `effects must be an object: ${shape}` }];
  const problems: FieldProblem[] = [];
  for (const [key, value] of Object.entries(effects)) {
    if (key === "assign") {
      if (
        !Array.isArray(value) ||
        !value.every((n) => typeof n === "string" && VARIABLE.test(n) && !n.startsWith(AUTOMATIC_PREFIX))
      )
        problems.push({
          message: `effects.assign must be an array of variable names (not the automatic ${AUTOMATIC_PREFIX} ones)`,
        });
    } else if (!(EFFECT_FLAG_NAMES as readonly string[]).includes(key)) {
      problems.push({ message: `effects.${key} is not an effect an action can declare: ${shape}` });
    } else if (typeof value !== "boolean") {
      problems.push({ message: `effects.${key} must be true or false` });
    }
  }
  return problems;
}

/** A valid `effects` declaration as the graph records it: the flags declared true, the variables once each. */
export function recordedEffects(effects: unknown): ActionEffects | undefined {
  if (typeof effects !== "object" || effects === null) return undefined;
  const given = effects as Record<string, unknown>;
  const out: ActionEffects = {};
  for (const flag of EFFECT_FLAG_NAMES) if (given[flag] === true) out[flag] = true;
  if (Array.isArray(given.assign) && given.assign.length) out.assign = [...new Set(given.assign as string[])];
  return Object.keys(out).length ? out : undefined;
}

/**
 * What is wrong with the fields a node of the action has: fields the action does not declare,
 * required ones missing, values its schemas refuse. `node` holds only the action's own fields.
 */
export function nodeFieldProblems(
  action: string,
  info: Pick<ActionInfo, "fields" | "required">,
  own: Record<string, unknown>,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const fields = info.fields ?? {};
  const declared = Object.keys(fields);
  for (const [field, value] of Object.entries(own)) {
    if (!Object.hasOwn(fields, field)) {
      const known = declared.length ? ` (its fields: ${declared.join(", ")})` : " (it declares none)";
      problems.push({
        field,
        kind: "unknown",
        message: `'${field}' is not a node field nor a field of action '${action}'${known}`,
      });
      continue;
    }
    const v = validatorOf(fields[field]!);
    if (typeof v === "string" || v(value)) continue;
    const why = (v.errors ?? [])
      .slice(0, 3)
      .map(
        (e) =>
          `${e.instancePath ? `${field}${e.instancePath.replace(/\//g, ".")}` : field} ${e.message ?? "is invalid"}`,
      );
    problems.push({
      field,
      kind: "invalid",
      message: `field '${field}' of action '${action}': ${why.join("; ") || "does not match its schema"}`,
    });
  }
  for (const field of info.required ?? []) {
    if (!Object.hasOwn(own, field))
      problems.push({ field, kind: "missing", message: `action '${action}' needs field '${field}'` });
  }
  return problems;
}

/** The fields of a node that are not fields of every node: its action's own. */
export function ownFields(node: object): Record<string, unknown> {
  const own: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) if (!NODE_FIELD_NAMES.has(k)) own[k] = v;
  return own;
}
