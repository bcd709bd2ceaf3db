/**
 * A small value that a JSON Schema takes, for the offline model's structured answers: the
 * schema's own `const`, `default`, `examples` or first `enum` value where it gives one, else the
 * least value of its type within its bounds. Covers what answers' schemas are usually written
 * with (objects, arrays, enums, bounds, anyOf / oneOf / allOf); a value the schema still refuses
 * (a `pattern`, a `$ref`) is refused by the runtime's check like any model's answer.
 */
import type { JsonValue } from "@autograms/graph";

type Schema = { [key: string]: JsonValue };

const isSchema = (v: JsonValue | undefined): v is Schema => v !== null && typeof v === "object" && !Array.isArray(v);

export function schemaExample(schema: JsonValue | undefined, depth = 0): JsonValue {
  if (!isSchema(schema) || depth > 16) return null;
  if ("const" in schema) return schema.const!;
  if ("default" in schema) return schema.default!;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0]!;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0]!;
  for (const key of ["anyOf", "oneOf"]) {
    const options = schema[key];
    if (Array.isArray(options) && options.length) return schemaExample(options[0], depth + 1);
  }
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.filter(isSchema);
    return schemaExample(Object.assign({}, ...parts, { allOf: undefined }) as Schema, depth + 1);
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((t) => t !== "null") ?? types[0] ?? (isSchema(schema.properties) ? "object" : undefined);
  switch (type) {
    case "object": {
      const properties = isSchema(schema.properties) ? schema.properties : {};
      return Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, schemaExample(v, depth + 1)]));
    }
    case "array": {
      const count = typeof schema.minItems === "number" ? schema.minItems : 1;
      return Array.from({ length: count }, () => schemaExample(schema.items, depth + 1));
    }
    case "string": {
      const min = typeof schema.minLength === "number" ? schema.minLength : 0;
      const max = typeof schema.maxLength === "number" ? schema.maxLength : Number.POSITIVE_INFINITY;
      return "(offline)".padEnd(min, ".").slice(0, max);
    }
    case "integer":
    case "number":
      return numberExample(schema, type === "integer");
    case "boolean":
      return false;
    default:
      return null;
  }
}

function numberExample(schema: Schema, integer: boolean): number {
  const num = (v: JsonValue | undefined) => (typeof v === "number" ? v : undefined);
  let n = num(schema.minimum) ?? 0;
  const above = num(schema.exclusiveMinimum);
  if (above !== undefined && n <= above) n = integer ? Math.floor(above) + 1 : above + 1;
  const max = num(schema.maximum);
  if (max !== undefined && n > max) n = max;
  return integer ? Math.ceil(n) : n;
}
