/**
 * The tools of a module, for a sheet's import: a sheet's rows name no modules, so the code of a
 * sheet that calls the agent's tools is given them by the import (`autograms import --tools
 * MODULE`). The module is read as text, never run: its exported functions (and the exported
 * constants, which `defineTool` makes) are the tools, each under its exported name.
 */
import type TS from "typescript";
import type { ToolInfo } from "@autograms/graph";
import { typescript } from "../phases/1-parse/typescript.js";

/** The module's exports as tools: `{ name: { module: specifier, export: name } }`. */
export function moduleTools(sourceText: string, fileName: string, specifier: string): Record<string, ToolInfo> {
  const ts = typescript();
  const file = ts.createSourceFile(fileName, sourceText, ts.ScriptTarget.Latest, false);
  const names: string[] = [];
  // A default export has no name to call it by in code.
  const exported = (node: TS.Node) => {
    const kinds = ts.canHaveModifiers(node) ? (ts.getModifiers(node) ?? []).map((m) => m.kind) : [];
    return kinds.includes(ts.SyntaxKind.ExportKeyword) && !kinds.includes(ts.SyntaxKind.DefaultKeyword);
  };
  for (const statement of file.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name && exported(statement)) names.push(statement.name.text);
    else if (ts.isVariableStatement(statement) && exported(statement)) {
      for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name)) names.push(d.name.text);
    } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly && statement.exportClause) {
      if (ts.isNamedExports(statement.exportClause))
        for (const e of statement.exportClause.elements) if (!e.isTypeOnly) names.push(e.name.text);
    }
  }
  return Object.fromEntries(names.map((name) => [name, { module: specifier, export: name }]));
}
