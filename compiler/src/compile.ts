import { createHash } from "node:crypto";
import type { Graph } from "@autograms/graph";
import { Diagnostics, type Diagnostic } from "./diagnostics/diagnostic.js";
import { deepestBracket, MAX_NESTING } from "./phases/1-parse/depth.js";
import { parse } from "./phases/1-parse/parse.js";
import { analyze } from "./phases/2-analyze/analyze.js";
import { readFromDisk } from "./phases/2-analyze/action-module.js";
import { lower } from "./phases/3-lower/lower.js";
import { emitJson } from "./phases/4-emit/json.js";
import { emitSourceMap, type SourceMapV3 } from "./phases/4-emit/source-map.js";
import { typeCheck } from "./typecheck/type-check.js";

export interface CompileOptions {
  /** The agent file's path as it should appear in diagnostics and in the graph's `source`. */
  fileName: string;
  /**
   * Reads the modules the agent imports custom actions from, resolved from `fileName`'s folder
   * (their `defineAction` is read, never run). By default, from the file system.
   */
  readFile?: (path: string) => string | undefined;
  /**
   * The agent file's path on disk, to type-check it with TypeScript's checker and the nearest
   * tsconfig.json once it compiles without errors (its errors are `type_error`s, and there is no
   * graph). Without it, nothing is type-checked: the compiler alone reads the text.
   */
  typeCheckPath?: string;
}

export interface CompileResult {
  /** null when there are errors. */
  graph: Graph | null;
  diagnostics: Diagnostic[];
  /** The graph file's text (`graphToJson(graph)`); null with the graph. Written on first use, with `sourceMap`. */
  readonly json: string | null;
  /** Maps `json` back to the agent source; null with the graph. */
  readonly sourceMap: SourceMapV3 | null;
}

/** Compiles an agent's TypeScript source to its graph. Never throws, whatever the input. */
export function compile(sourceText: string, options: CompileOptions): CompileResult {
  const fileName = typeof options?.fileName === "string" && options.fileName ? options.fileName : "agent.ts";
  const diagnostics = new Diagnostics(fileName);
  try {
    const text = typeof sourceText === "string" ? sourceText : "";
    const file = parse(text, fileName, diagnostics);
    const ir = file && analyze(file, diagnostics, options.readFile ?? readFromDisk);
    const lowered = ir && !diagnostics.hasErrors ? lower(ir, diagnostics, text) : null;
    // Checked only once the agent compiles: a type error that a compiler error causes is no second mistake.
    if (lowered && !diagnostics.hasErrors && options.typeCheckPath)
      diagnostics.list.push(...typeCheck(text, { path: options.typeCheckPath, fileName }));
    if (!lowered || diagnostics.hasErrors)
      return { graph: null, diagnostics: diagnostics.sorted(), json: null, sourceMap: null };
    const { format, version, ...rest } = lowered;
    const graph: Graph = {
      format,
      version,
      source: { file: fileName, sha256: createHash("sha256").update(text).digest("hex") },
      ...rest,
    };
    // The text and its map are written together when first asked for: a caller that only runs the
    // graph (a server, a chat) needs neither.
    let written: { json: string; sourceMap: SourceMapV3 } | undefined;
    const write = () => {
      if (written) return written;
      const file = emitJson(graph);
      const sourceMap = emitSourceMap(graph, file.spans, graphFileName(fileName), baseName(fileName), text);
      written = { json: file.text, sourceMap };
      return written;
    };
    return {
      graph,
      diagnostics: diagnostics.sorted(),
      get json() {
        return write().json;
      },
      get sourceMap() {
        return write().sourceMap;
      },
    };
  } catch (error) {
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      // TypeScript's parser and the visitors are recursive. The depth check after parsing bounds
      // nesting, but how deep a phase can recurse before the stack runs out depends on the engine
      // and its JIT state (a long else-if chain, flat for the check, is recursive in both): this
      // is still the input's depth, located at its deepest bracket.
      const at = deepestBracket(typeof sourceText === "string" ? sourceText : "", MAX_NESTING);
      diagnostics.report("nesting_too_deep", "file_nests", at, { maxNesting: MAX_NESTING });
      return { graph: null, diagnostics: diagnostics.sorted(), json: null, sourceMap: null };
    }
    // A crash here is a compiler bug; the caller still gets a diagnostic rather than a stack trace.
    const detail = error instanceof Error ? error.message : String(error);
    diagnostics.report(
      "internal_error",
      "compiler_failed",
      { line: 1, column: 1, endLine: 1, endColumn: 1 },
      { detail },
    );
    return { graph: null, diagnostics: diagnostics.sorted(), json: null, sourceMap: null };
  }
}

/** The graph file's text, the one the source map describes. */
export function graphToJson(graph: Graph): string {
  return emitJson(graph).text;
}

/** `agents/tutor.ts` -> `tutor.graph.json`: the file the CLI writes beside the agent. */
export function graphFileName(path: string): string {
  return baseName(path).replace(/\.[cm]?tsx?$/, "") + ".graph.json";
}

function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
}
