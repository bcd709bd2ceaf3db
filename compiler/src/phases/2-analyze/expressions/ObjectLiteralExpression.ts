import type TS from "typescript";
import { BASE_ACTIONS, isFunctionKind, isSpecialTarget, ORIGINAL_ACTION_NAMES, type JsonValue } from "@autograms/graph";
import { checkCode } from "@autograms/sandbox";
import { closest } from "../../../diagnostics/suggest.js";
import { typescript } from "../../1-parse/typescript.js";
import { report, type FunctionContext } from "../context.js";
import type { NodeParts } from "../ir.js";
import { isNotLiteral, literalValue, propertyKey, skipTypeWrappers } from "../literal.js";
import { WRITTEN_FIELDS, type FieldType } from "./node-fields.js";
import { textOf } from "./TemplateExpression.js";
import { checkCustomFields, customAction } from "./action-field.js";
import { checkEffectTargets } from "./effect-targets.js";
import { toolsField } from "./tools-field.js";

export interface ReadFields {
  fields: Record<string, JsonValue>;
  /** Every field written, valid or not (so a bad value is not also reported missing). */
  written: Set<string>;
  /**
   * Where each field was written, for diagnostics about it: the value, or the property's name
   * when the value spans lines (a code frame shows one line).
   */
  at: Record<string, TS.Node>;
  /** Fields that a misspelt field was likely meant to be: checks that need them say nothing more. */
  meant: Set<string>;
  /** Each target of `transitions`, where it is written. */
  targetsAt?: TS.Node[];
}

/**
 * The node fields of an exec_node object literal or a shorthand's options: each value a
 * literal of the field's type, text fields with `${...}` placeholders as `$variables`.
 * `fixed` lists fields the call itself provides (a shorthand's action and instruction).
 */
export function readFields(
  object: TS.ObjectLiteralExpression,
  ctx: FunctionContext,
  parts: NodeParts,
  fixed: string[],
): ReadFields {
  const ts = typescript();
  const result: ReadFields = { fields: {}, written: new Set(), at: {}, meant: new Set() };
  // `action: confirm` (an imported custom action, not a string) admits the fields it declares.
  const reference = fixed.includes("action") ? undefined : actionReference(object);
  const custom = reference && customAction(reference, ctx);
  const own: Record<string, JsonValue> = {};
  for (const property of object.properties) {
    if (!ts.isPropertyAssignment(property)) {
      report(ctx, "non_literal_field", "node_fields", property);
      continue;
    }
    const key = propertyKey(property.name);
    if (reference && key === "action") {
      result.written.add(key);
      result.at.action = property.initializer;
      if (custom) result.fields.action = custom.name;
      continue;
    }
    if (reference && key !== null && WRITTEN_FIELDS[key] === undefined) {
      // The action's own fields are checked against its schemas below (unreadable action: not at all).
      const value = customFieldValue(key, property.initializer, ctx, parts);
      result.written.add(key);
      result.at[key] = onOneLine(property.initializer, ctx) ? property.initializer : property.name;
      if (value !== undefined) own[key] = result.fields[key] = value;
      continue;
    }
    const type = key === null ? undefined : WRITTEN_FIELDS[key];
    if (key === null || type === undefined || fixed.includes(key)) {
      const written = property.name.getText(ctx.agent.file);
      const meant = fixed.includes(key ?? "")
        ? undefined
        : closest(
            key ?? written,
            Object.keys(WRITTEN_FIELDS).filter((field) => !fixed.includes(field)),
          );
      if (meant !== undefined) result.meant.add(meant);
      const hint = fixed.includes(key ?? "")
        ? ` ('${key}' is given by the call itself)`
        : meant !== undefined
          ? `; did you mean '${meant}'?`
          : "";
      report(ctx, "unknown_field", "not_node", property.name, { written, hint });
      continue;
    }
    result.written.add(key);
    const value =
      type === "tools"
        ? toolsField(property.initializer, ctx)
        : fieldValue(key, type, property.initializer, ctx, parts);
    if (value !== undefined) {
      result.fields[key] = value;
      result.at[key] = onOneLine(property.initializer, ctx) ? property.initializer : property.name;
      if (key === "transitions") result.targetsAt = elementsOf(property.initializer);
    }
  }
  if (custom) {
    checkCustomFields(custom.name, custom.info, own, result.written, result.at, object, ctx);
    checkEffectTargets(custom.name, custom.info, object.parent ?? object, ctx);
  }
  return result;
}

/** The value of `action` when it is not a string: a reference to an imported custom action. */
function actionReference(object: TS.ObjectLiteralExpression): TS.Expression | undefined {
  const ts = typescript();
  for (const property of object.properties) {
    if (!ts.isPropertyAssignment(property) || propertyKey(property.name) !== "action") continue;
    const value = skipTypeWrappers(property.initializer);
    return ts.isStringLiteralLike(value) ? undefined : property.initializer;
  }
  return undefined;
}

/** A custom action's field: any JSON literal; a string may be a template literal, its placeholders `$variables`. */
function customFieldValue(
  key: string,
  node: TS.Expression,
  ctx: FunctionContext,
  parts: NodeParts,
): JsonValue | undefined {
  const ts = typescript();
  const inner = skipTypeWrappers(node);
  if (ts.isTemplateExpression(inner)) {
    const text = textOf(node, ctx, parts);
    if (text !== null) return text;
  }
  const value = literalValue(node);
  if (isNotLiteral(value)) {
    report(ctx, "non_literal_field", "must_known", value.notLiteral, { key });
    return undefined;
  }
  return value;
}

function fieldValue(
  key: string,
  type: Exclude<FieldType, "tools">,
  node: TS.Expression,
  ctx: FunctionContext,
  parts: NodeParts,
): JsonValue | undefined {
  if (type === "text") {
    const text = textOf(node, ctx, parts);
    if (text === null) {
      const literal = literalValue(node);
      if (!isNotLiteral(literal)) {
        report(ctx, "invalid_field_value", "must_string", node, { key });
        return undefined;
      }
      report(ctx, "non_literal_field", "must_string", node, { key });
      return undefined;
    }
    return text;
  }
  const value = literalValue(node);
  if (isNotLiteral(value)) {
    const hint = ctx.agent.file.text.slice(node.getStart(ctx.agent.file), node.getEnd()).includes("${")
      ? " (placeholders are only allowed in instruction and transition_question)"
      : "";
    report(ctx, "non_literal_field", "must_known_compile", value.notLiteral, { key, hint });
    return undefined;
  }
  const problem = typeProblem(type, value);
  if (problem) {
    const bad = Array.isArray(value) && type in ELEMENT_OK ? value.findIndex((v) => !ELEMENT_OK[type]!(v)) : -1;
    report(ctx, "invalid_field_value", "wrong_type", elementsOf(node)[bad] ?? node, { key, problem });
    return undefined;
  }
  if (key === "action" && !(BASE_ACTIONS as readonly JsonValue[]).includes(value)) {
    const action = Object.hasOwn(ORIGINAL_ACTION_NAMES, value as string)
      ? ORIGINAL_ACTION_NAMES[value as string]
      : value;
    const hint =
      action === "code"
        ? ": write code as ordinary statements"
        : isFunctionKind(action as string)
          ? ": call the method, this.name(...)"
          : `: use one of ${BASE_ACTIONS.join(", ")}, or import a custom action and write it without quotes`;
    report(ctx, "unknown_action", "unknown_name", node, { action: String(value), hint });
    return undefined;
  }
  if (key === "name" && value !== "auto" && isSpecialTarget(value as string)) {
    report(ctx, "invalid_node_name", "special_transition", node, { name: String(value) });
    return undefined;
  }
  if (key === "boolean_condition") {
    const error = checkCode(value as string);
    if (error) {
      report(ctx, "invalid_field_value", "boolean_condition", node, { errorMessage: error.message });
      return undefined;
    }
  }
  if (key === "name" && value === "") {
    report(ctx, "invalid_node_name", "cannot_empty", node);
    return undefined;
  }
  return value;
}

const ELEMENT_OK: Partial<Record<FieldType, (value: JsonValue) => boolean>> = {
  strings: (v) => typeof v === "string",
  numbers: (v) => typeof v === "number" && v >= 0,
};

function typeProblem(type: Exclude<FieldType, "tools">, value: JsonValue): string | null {
  switch (type) {
    case "string":
    case "text":
      return typeof value === "string" ? null : "must be a string";
    case "strings":
      return Array.isArray(value) && value.every(ELEMENT_OK.strings!) ? null : "must be an array of strings";
    case "numbers":
      return Array.isArray(value) && value.every(ELEMENT_OK.numbers!)
        ? null
        : "must be an array of non-negative numbers";
    case "integer":
      return Number.isInteger(value) && (value as number) >= 0 ? null : "must be a whole number, 0 or more";
    case "probability":
      return typeof value === "number" && value >= 0 && value <= 1 ? null : "must be a number from 0 to 1";
    case "object":
      return value !== null && typeof value === "object" && !Array.isArray(value) ? null : "must be an object";
  }
}

/** The elements of an array literal (as written, `as const` and parentheses aside), else none. */
function elementsOf(node: TS.Expression): TS.Expression[] {
  const ts = typescript();
  const list = skipTypeWrappers(node);
  return ts.isArrayLiteralExpression(list) ? [...list.elements] : [];
}

function onOneLine(node: TS.Node, ctx: FunctionContext): boolean {
  const { file } = ctx.agent;
  return (
    file.getLineAndCharacterOfPosition(node.getStart(file)).line ===
    file.getLineAndCharacterOfPosition(node.getEnd()).line
  );
}
