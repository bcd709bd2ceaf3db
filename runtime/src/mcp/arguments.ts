// A call's arguments checked against the tool's input schema before it is sent, so that a mistake
// reads as which argument and what was expected, not as the server's dump of validation issues.
import type { ErrorObject } from "ajv";
import { validatorOf } from "@autograms/graph";
import type { JsonValue } from "@autograms/graph";

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

/**
 * The schema as checked here: without `$schema` (a draft's meta-schema the validator may not hold)
 * and `format`s (which it does not know, and would warn about on stderr): the server checks those.
 * (A tool's schema nests at most maxSchemaDepth levels: recursion is safe.)
 */
function checkable(schema: unknown, top = true): unknown {
  if (Array.isArray(schema)) return schema.map((s) => checkable(s, false));
  if (typeof schema !== "object" || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([k, v]) => !(typeof v === "string" && (k === "format" || (top && k === "$schema"))))
      .map(([k, v]) => [k, checkable(v, false)]),
  );
}

/** What is wrong with `args` for the schema, or undefined (also when the schema cannot be compiled: the server judges then). */
export function argumentsProblem(schema: unknown, args: unknown): string | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  const validate = validatorOf(checkable(schema) as JsonValue);
  if (typeof validate === "string" || validate(args)) return undefined;
  const problems = [...new Set((validate.errors ?? []).map((e) => describe(e, args)))];
  return problems.length > 3 ? `${problems.slice(0, 3).join("; ")}; ...` : problems.join("; ");
}

/**
 * A server's refusal of the arguments, readable. The MCP SDK's servers answer `MCP error -32602:
 * Input validation error: Invalid arguments for tool x: ...` with their validator's issues, as
 * lines `message at path` (SDK 1.2x and later) or as a JSON dump (earlier); each becomes
 * `argument 'email': that domain cannot receive mail`. Other texts are left as they are.
 */
export function readableRefusal(text: string): string {
  const m = /(?:MCP error -?\d+: )?(?:Input validation error: )?Invalid arguments for tool [^:]*: ([\s\S]*)$/.exec(
    text,
  );
  if (!m) return text;
  const body = m[1]!.trim();
  const argument = (path: string[]) =>
    path.length ? `argument '${argumentPath(`/${path.join("/")}`)}'` : "the arguments";
  if (body.startsWith("[")) {
    try {
      const issues = JSON.parse(body) as { path?: unknown[]; message?: unknown }[];
      return issues
        .map(
          (i) => `${argument((i.path ?? []).map(String))}: ${typeof i.message === "string" ? i.message : "not valid"}`,
        )
        .join("; ");
    } catch {
      return text;
    }
  }
  return body
    .split("\n")
    .map((line) => {
      const at = /^(.*) at ([^\s]+)$/.exec(line);
      return at ? `${argument(at[2]!.split("."))}: ${at[1]}` : `the arguments: ${line}`;
    })
    .join("; ");
}
