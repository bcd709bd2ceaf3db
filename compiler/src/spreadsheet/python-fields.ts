/**
 * The places of a node where the original's sheets hold Python (code, call arguments, conditions,
 * `return` expressions), each translated as a whole field value. The importer translates them and
 * keeps what the original wrote in the node's `python` field; the exporter in the original's format
 * writes that back wherever the field still holds its translation, so a sheet imported and
 * exported again reads as the original wrote it.
 */
import { isFunctionKind, parseTarget, type GraphNode } from "@autograms/graph";
import { translatePython, type Translation } from "./python-code.js";

/** A node's fields that may hold Python, as the importer and the exporter read them. */
export type CodeHolder = Pick<GraphNode, "action" | "instruction" | "boolean_condition" | "transitions">;

export interface PythonPlace {
  /** `instruction`, `boolean_condition` or `transitions/<i>`: a key of the node's `python`. */
  field: string;
  /** The column a problem with it is reported at. */
  column: "instruction" | "boolean_condition" | "transitions";
  /** The field's whole value. */
  value: string;
}

const CALL = /^(\s*[A-Za-z_$][\w$]*\s*\()([\s\S]*)\)(\s*)$/;

/** The places of `node` whose value is (or may be) Python. */
export function pythonPlaces(node: CodeHolder): PythonPlace[] {
  const places: PythonPlace[] = [];
  const instruction = node.instruction;
  if (typeof instruction === "string" && (node.action === "code" || isFunctionKind(node.action)))
    places.push({ field: "instruction", column: "instruction", value: instruction });
  if (typeof node.boolean_condition === "string")
    places.push({ field: "boolean_condition", column: "boolean_condition", value: node.boolean_condition });
  node.transitions.forEach((t, i) => {
    if (parseTarget(t).kind === "return") places.push({ field: `transitions/${i}`, column: "transitions", value: t });
  });
  return places;
}

/**
 * The Python of one place's whole value, and how its translation goes back into the field: a code
 * node's statement, a call's arguments (as a list, the call kept around them), a condition, the
 * expression of `return expr`. Undefined where there is none (a call without arguments).
 */
export function pythonIn(
  action: string,
  field: string,
  value: string,
): { text: string; wrap: (js: string) => string } | undefined {
  if (field === "instruction" && action !== "code") {
    const call = CALL.exec(value);
    if (!call || call[2]!.trim() === "") return undefined;
    return { text: `[${call[2]}]`, wrap: (js) => `${call[1]}${js.replace(/^\[|\]$/g, "")})${call[3]}` };
  }
  if (field.startsWith("transitions/")) {
    const target = parseTarget(value);
    if (target.kind !== "return" || target.expr === undefined) return undefined;
    return { text: target.expr, wrap: (js) => `return ${js}` };
  }
  return { text: value, wrap: (js) => js };
}

/** The translation of one place's whole value; `translated` carries the field's new value. */
export function translatePlace(action: string, field: string, value: string): Translation {
  const python = pythonIn(action, field, value);
  if (!python) return { kind: "unchanged" };
  const t = translatePython(python.text);
  return t.kind === "translated" ? { ...t, code: python.wrap(t.code) } : t;
}

/** The node's field at a place's key. */
function valueAt(node: CodeHolder, field: string): string | undefined {
  if (field.startsWith("transitions/")) return node.transitions[Number(field.slice("transitions/".length))];
  const value = node[field as "instruction" | "boolean_condition"];
  return typeof value === "string" ? value : undefined;
}

/** The fields of `python` the node still holds the translation of: those the original's text stands for. */
export function keptPython(node: CodeHolder & { python?: Record<string, string> }): Map<string, string> {
  const kept = new Map<string, string>();
  for (const [field, python] of Object.entries(node.python ?? {})) {
    const t = translatePlace(node.action, field, python);
    if (t.kind === "translated" && t.code === valueAt(node, field)) kept.set(field, python);
  }
  return kept;
}

/**
 * The node as the original wrote it: each field its `python` keeps, where the field still holds
 * that Python's translation (an edited field is the evaluator's code now, and stays so).
 */
export function asTheOriginalWrote<N extends CodeHolder & { python?: Record<string, string> }>(node: N): N {
  const kept = keptPython(node);
  if (kept.size === 0) return node;
  const shown = { ...node, transitions: [...node.transitions] };
  for (const [field, python] of kept) {
    if (field.startsWith("transitions/")) shown.transitions[Number(field.slice("transitions/".length))] = python;
    else (shown as Record<string, unknown>)[field] = python;
  }
  return shown;
}
