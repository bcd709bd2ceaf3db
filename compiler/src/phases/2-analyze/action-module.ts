/**
 * Custom actions are defined in modules of their own (`export const confirm = defineAction({...})`)
 * and the agent imports them. The compiler never runs that module: it reads it as text, as it
 * reads the agent, and takes from the `defineAction` call what the graph records and checks
 * nodes against (name, base, fields, required). Hooks stay in the module, for the Agent.
 */
import { readFileSync } from "node:fs";
import type TS from "typescript";
import type { ActionInfo, BaseAction, JsonValue } from "@autograms/graph";
import { typescript } from "../1-parse/typescript.js";
import { isNotLiteral, literalValue, propertyKey, skipTypeWrappers } from "./literal.js";

/** Reads a file's text; undefined when there is none. */
export type ReadFile = (path: string) => string | undefined;

export const readFromDisk: ReadFile = (path) => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
};

/** What the literal says; `effects` as written, checked with the rest of the declaration. */
export type DeclaredInfo = Omit<ActionInfo, "module" | "export" | "effects"> & { effects?: JsonValue };

export type ActionDeclaration = { ok: true; name: string; info: DeclaredInfo } | { ok: false; message: string };

/** The module a relative specifier names, as TypeScript finds it from the agent's folder. */
function candidates(specifier: string, agentFile: string): string[] {
  const slash = Math.max(agentFile.lastIndexOf("/"), agentFile.lastIndexOf("\\"));
  const dir = slash < 0 ? "." : agentFile.slice(0, slash);
  const base = `${dir}/${specifier}`.replace(/\/\.\//g, "/");
  const stem = base.replace(/\.[cm]?js$/, "");
  const ts = [".ts", ".mts", ".cts", ".tsx"];
  return [
    ...(stem !== base ? ts.map((e) => stem + e) : []),
    base,
    ...ts.map((e) => base + e),
    ...ts.map((e) => `${base}/index${e}`),
  ];
}

/** What `defineAction` says about the export `exported` of the module `specifier`. */
export function readActionDeclaration(
  specifier: string,
  exported: string,
  agentFile: string,
  read: ReadFile,
): ActionDeclaration {
  if (!specifier.startsWith(".")) {
    return {
      ok: false,
      message: `the compiler reads action definitions from the agent's own modules (a relative import like './actions.js'), not from '${specifier}'`,
    };
  }
  let path: string | undefined;
  let text: string | undefined;
  for (const c of candidates(specifier, agentFile)) {
    text = read(c);
    if (text !== undefined) {
      path = c;
      break;
    }
  }
  if (path === undefined || text === undefined)
    return {
      ok: false,
      message: `cannot read the module '${specifier}' (looked for ${candidates(specifier, agentFile).slice(0, 2).join(", ")}, ...)`,
    };
  const ts = typescript();
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const call = exportedDefinition(file, exported);
  const where = `'${exported === "default" ? "export default" : exported}' in ${path}`;
  if (!call) {
    return {
      ok: false,
      message: `${where} is not a defineAction({...}) call the compiler can read: write 'export const ${exported === "default" ? "name" : exported} = defineAction({ name: "...", ... })'`,
    };
  }
  return declarationOf(call, file, where);
}

/** The `defineAction(...)` call the module exports under `exported`, or null. */
function exportedDefinition(file: TS.SourceFile, exported: string): TS.CallExpression | null {
  const ts = typescript();
  const locals = new Map<string, TS.Expression>();
  const exports = new Map<string, string>();
  for (const statement of file.statements) {
    if (ts.isVariableStatement(statement)) {
      const isExported = ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;
      for (const d of statement.declarationList.declarations) {
        if (!ts.isIdentifier(d.name) || !d.initializer) continue;
        locals.set(d.name.text, d.initializer);
        if (isExported) exports.set(d.name.text, d.name.text);
      }
    } else if (ts.isExportAssignment(statement) && !statement.isExportEquals) {
      const e = skipTypeWrappers(statement.expression);
      if (ts.isIdentifier(e)) {
        exports.set("default", e.text);
      } else {
        locals.set("\0default", e);
        exports.set("default", "\0default");
      }
    } else if (
      ts.isExportDeclaration(statement) &&
      !statement.moduleSpecifier &&
      statement.exportClause &&
      ts.isNamedExports(statement.exportClause)
    ) {
      for (const el of statement.exportClause.elements) exports.set(el.name.text, (el.propertyName ?? el.name).text);
    }
  }
  const local = exports.get(exported);
  const value = local === undefined ? undefined : locals.get(local);
  if (!value) return null;
  const call = skipTypeWrappers(value);
  if (!ts.isCallExpression(call)) return null;
  const callee = skipTypeWrappers(call.expression);
  return ts.isIdentifier(callee) && callee.text === "defineAction" ? call : null;
}

const READ = new Set(["name", "base", "fields", "required", "effects"]);

function declarationOf(call: TS.CallExpression, file: TS.SourceFile, where: string): ActionDeclaration {
  const ts = typescript();
  const spec = call.arguments[0] && skipTypeWrappers(call.arguments[0]);
  const line = (n: TS.Node) => `${file.fileName}:${file.getLineAndCharacterOfPosition(n.getStart(file)).line + 1}`;
  if (!spec || !ts.isObjectLiteralExpression(spec))
    return { ok: false, message: `${where}: defineAction takes an object literal` };
  const values: Record<string, JsonValue> = {};
  let decides = false;
  for (const p of spec.properties) {
    const key = p.name ? propertyKey(p.name as TS.PropertyName) : null;
    if (key === "transition") decides = true;
    if (key === null || !READ.has(key)) continue;
    if (!ts.isPropertyAssignment(p))
      return { ok: false, message: `${where}: write '${key}' as '${key}: <literal>' (${line(p)})` };
    const value = literalValue(p.initializer);
    if (isNotLiteral(value))
      return {
        ok: false,
        message: `${where}: '${key}' must be a literal the compiler can read (${line(p.initializer)})`,
      };
    values[key] = value;
  }
  if (typeof values.name !== "string")
    return { ok: false, message: `${where}: defineAction needs a name, a string literal` };
  if (values.base !== undefined && typeof values.base !== "string")
    return { ok: false, message: `${where}: base must be a string` };
  const fields = values.fields;
  if (fields !== undefined && (fields === null || typeof fields !== "object" || Array.isArray(fields))) {
    return { ok: false, message: `${where}: fields must be an object of JSON Schemas, one per field` };
  }
  const required = values.required;
  if (required !== undefined && !(Array.isArray(required) && required.every((r) => typeof r === "string"))) {
    return { ok: false, message: `${where}: required must be an array of field names` };
  }
  const info: DeclaredInfo = {};
  if (values.base !== undefined) info.base = values.base as BaseAction;
  if (fields !== undefined && Object.keys(fields).length) info.fields = fields as Record<string, JsonValue>;
  if (required !== undefined && required.length) info.required = required as string[];
  if (decides) info.decides = true;
  if (values.effects !== undefined) info.effects = values.effects;
  return { ok: true, name: values.name, info };
}
