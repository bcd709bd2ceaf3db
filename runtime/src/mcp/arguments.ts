// A call's arguments checked against the tool's input schema before it is sent, so that a mistake
// reads as which argument and what was expected, not as the server's dump of validation issues.
import type { ErrorObject } from "ajv";
import { validatorOf } from "../graph/json-schemas.js";
import type { JsonValue } from "../json.js";

/** `items/0/price` as `items[0].price`. */
function argumentPath(instancePath: string, extra?: string): string {
  const parts = instancePath.split("/").slice(1);
  if (extra !== undefined) parts.push(extra);
  return parts
    .map((p, i) => {
      const part = p.replace(/~1/g, "/").replace(/~0/g, "~");
      return i === 0 ? part : /^\d+$/.test(part) ? `[${part}]` : `.${part}`;
    })
    .join("");
}

const typeName = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

function valueAt(args: unknown, instancePath: string): unknown {
  let v = args;
  for (const p of instancePath.split("/").slice(1)) v = (v as Record<string, unknown> | undefined)?.[p];
  return v;
}

function describe(error: ErrorObject, args: unknown): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return `argument '${argumentPath(error.instancePath, String(params.missingProperty))}' is missing`;
    case "additionalProperties":
      return `there is no argument '${argumentPath(error.instancePath, String(params.additionalProperty))}'`;
    case "type":
      return `argument '${argumentPath(error.instancePath)}' must be ${String(params.type).replace(",", " or ")}, not ${typeName(valueAt(args, error.instancePath))}`;
    case "enum":
      return `argument '${argumentPath(error.instancePath)}' must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    default:
      return error.instancePath
        ? `argument '${argumentPath(error.instancePath)}' ${error.message ?? "is not valid"}`
        : `the arguments ${error.message ?? "are not valid"}`;
  }
}

/** What is wrong with `args` for the schema, or undefined (also when the schema cannot be compiled: the server judges then). */
export function argumentsProblem(schema: unknown, args: unknown): string | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  // A draft's `$schema` names a meta-schema the validator may not hold; the keywords are what count.
  const { $schema: _, ...rest } = schema as Record<string, unknown>;
  const validate = validatorOf(rest as JsonValue);
  if (typeof validate === "string" || validate(args)) return undefined;
  const problems = [...new Set((validate.errors ?? []).map((e) => describe(e, args)))];
  return problems.length > 3 ? `${problems.slice(0, 3).join("; ")}; ...` : problems.join("; ");
}
