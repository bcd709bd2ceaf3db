// TypeScript declarations of the `mcp:NAME` modules agent code imports tools from, written from
// the servers' JSON Schemas, so that the agent type-checks (tsc, an editor) as with local tools.
import { importName } from "./config.js";

/** A tool as a server lists it. */
export interface ListedTool {
  name: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
}

type Schema = Record<string, unknown>;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const key = (k: string) => (IDENTIFIER.test(k) ? k : JSON.stringify(k));

/** The TypeScript type of a JSON Schema, as far as one says it; `unknown` beyond. */
export function typeOf(schema: unknown, indent = ""): string {
  if (typeof schema !== "object" || schema === null) return "unknown";
  const s = schema as Schema;
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(" | ") || "never";
  if ("const" in s) return JSON.stringify(s.const);
  const union = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(union)) return union.map((u) => typeOf(u, indent)).join(" | ") || "unknown";
  if (Array.isArray(s.type)) return s.type.map((t) => typeOf({ ...s, type: t }, indent)).join(" | ");
  switch (s.type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      return `${wrap(typeOf(s.items, indent))}[]`;
    case "object":
    case undefined: {
      const properties = s.properties as Record<string, unknown> | undefined;
      if (!properties) return s.type === "object" ? "Record<string, unknown>" : "unknown";
      const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
      const inner = `${indent}  `;
      const lines = Object.entries(properties).map(([k, v]) => {
        const doc =
          typeof (v as Schema)?.description === "string"
            ? `${inner}/** ${(v as Schema).description as string} */\n`
            : "";
        return `${doc}${inner}${key(k)}${required.has(k) ? "" : "?"}: ${typeOf(v, inner)};`;
      });
      return lines.length ? `{\n${lines.join("\n")}\n${indent}}` : "Record<string, never>";
    }
    default:
      return "unknown";
  }
}

const wrap = (t: string) => (/[|&]/.test(t) ? `(${t})` : t);

/** One `declare module "mcp:NAME"` per server: each tool a DefinedTool of its input and its value. */
export function mcpDeclarations(servers: Record<string, readonly ListedTool[]>): string {
  const modules = Object.entries(servers).map(([server, tools]) => {
    const decls = tools.map((t) => {
      const doc = t.description
        ? `  /** ${t.description.replace(/\*\//g, "*\\/")}${importName(t.name) === t.name ? "" : ` (the server's tool '${t.name}')`} */\n`
        : "";
      // A tool without an output schema gives its text.
      const value = t.outputSchema ? typeOf(t.outputSchema, "  ") : "string";
      return `${doc}  export const ${importName(t.name)}: DefinedTool<${typeOf(t.inputSchema ?? { type: "object", properties: {} }, "  ")}, ${value}>;`;
    });
    return `declare module "mcp:${server}" {\n  import type { DefinedTool } from "@autograms/runtime";\n${decls.join("\n")}\n}`;
  });
  return `// The tools of the MCP servers, as agent code imports them. Written by \`autograms mcp-types\`: do not edit.\n\n${modules.join("\n\n")}\n`;
}
