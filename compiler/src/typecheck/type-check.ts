import { dirname, resolve } from "node:path";
import type TS from "typescript";
import { Diagnostics, type Diagnostic } from "../diagnostics/diagnostic.js";
import { RUNTIME_MODULE } from "../phases/2-analyze/context.js";
import { locOfRange } from "../phases/1-parse/loc.js";
import { typescript } from "../phases/1-parse/typescript.js";
import { cleanKey, knownClean, rememberClean } from "./clean-cache.js";
import { agentGlobalsFile, agentHost } from "./host.js";
import { projectOptions } from "./project-options.js";

export interface TypeCheckOptions {
  /** The agent file's path on disk: its imports and its nearest tsconfig.json are found from it. */
  path: string;
  /** The path as diagnostics name it (as `compile`'s `fileName`). */
  fileName: string;
}

/**
 * What TypeScript's checker finds wrong in the agent file, the way an editor sees it: a tool
 * called with arguments its type does not take, a `thought<T>` value read as another type, a
 * misspelt property. Only the agent file's own errors are reported (a library's are not the
 * agent's), as `type_error` diagnostics with TypeScript's code in the message. The compiler
 * checks what the graph needs; this checks the rest of what TypeScript would.
 */
export function typeCheck(sourceText: string, options: TypeCheckOptions): Diagnostic[] {
  const ts = typescript();
  const path = resolve(options.path);
  const diagnostics = new Diagnostics(options.fileName);
  const project = projectOptions(dirname(path));
  for (const problem of project.problems) diagnostics.report("type_error", "tsconfig", START, { problem });
  const host = agentHost(path, sourceText, project.options);
  // Without the runtime installed where the agent is (the command run on a lone file: it carries
  // its own runtime), there are no types to check the agent against.
  if (!ts.resolveModuleName(RUNTIME_MODULE, path, project.options, host).resolvedModule) return diagnostics.sorted();
  const roots = [path, agentGlobalsFile(path), ...project.declarations.filter((d) => resolve(d) !== path)];
  const key = cleanKey(sourceText, path, project.options, roots);
  if (knownClean(key)) return diagnostics.sorted();
  const program = ts.createProgram({
    rootNames: roots,
    options: project.options,
    host,
    ...(cache?.key === project.key && { oldProgram: cache.program }),
  });
  cache = { key: project.key, program };
  const file = program.getSourceFile(path);
  if (!file) return [];
  for (const d of program.getSemanticDiagnostics(file)) {
    if (d.category !== ts.DiagnosticCategory.Error || d.file?.fileName === undefined) continue;
    if (resolve(d.file.fileName) !== path || d.start === undefined) continue;
    const text = ts.flattenDiagnosticMessageText(d.messageText, "\n  ");
    const at = locOfRange(file, d.start, d.start + (d.length ?? 0));
    diagnostics.report("type_error", "typescript", at, { text, code: d.code, hint: hintFor(d.code, text) });
  }
  if (diagnostics.list.length === 0) {
    const virtual = new Set([path, agentGlobalsFile(path)]);
    rememberClean(
      key,
      program
        .getSourceFiles()
        .map((f) => resolve(f.fileName))
        .filter((f) => !virtual.has(f)),
    );
  }
  return diagnostics.sorted();
}

const START = { line: 1, column: 1, endLine: 1, endColumn: 1 };

/**
 * The last program checked, for the next check of the same project (`--watch`, `serve`'s rebuilds):
 * TypeScript reuses what did not change, the libraries' declarations above all.
 */
let cache: { key: string; program: TS.Program } | undefined;

/** What to do about the errors a newcomer meets first. */
function hintFor(code: number, text: string): string {
  // TS2307, "Cannot find module 'mcp:shop'": the declarations of an MCP server's tools are written by a command.
  if (code === 2307 && text.includes("'mcp:"))
    return " (write the declarations of the MCP servers' tools with 'autograms mcp-types')";
  return "";
}
