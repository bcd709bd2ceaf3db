/**
 * JSON Schemas the graph carries (a custom action's fields, a thought's `schema`), compiled once
 * each and shared by the compiler, `validateGraph` and the Agent.
 */
import { createRequire } from "node:module";
import type { Ajv2020 as AjvClass } from "ajv/dist/2020.js";
import type { ErrorObject, ValidateFunction } from "ajv";
import type { JsonValue } from "./json.js";

let ajv: AjvClass | undefined;
const compiled = new Map<string, ValidateFunction | string>();

// Loaded on first use: an agent without schemas never needs a schema compiler (the command
// line's compile stays fast by not loading one).
function schemaCompiler(): AjvClass {
  if (!ajv) {
    const { Ajv2020 } = createRequire(import.meta.url)("ajv/dist/2020.js") as { Ajv2020: typeof AjvClass };
    ajv = new Ajv2020({ allErrors: true, strict: false });
  }
  return ajv;
}

/** The schema compiled (cached by its text), or why it is not a schema. */
export function validatorOf(schema: JsonValue): ValidateFunction | string {
  const key = JSON.stringify(schema);
  let v = compiled.get(key);
  if (v === undefined) {
    try {
      v = schemaCompiler().compile(schema as object);
    } catch (e) {
      v = e instanceof Error ? e.message : String(e);
    }
    compiled.set(key, v);
  }
  return v;
}

/** A validator's errors as one line: `/items/0/price must be number; must have required property 'id'`. */
export function schemaErrors(errors: ErrorObject[] | null | undefined, limit = 3): string {
  const list = (errors ?? []).map((e) => `${e.instancePath ? `${e.instancePath} ` : ""}${e.message ?? "is invalid"}`);
  return list.length > limit ? `${list.slice(0, limit).join("; ")}; ...` : list.join("; ");
}
