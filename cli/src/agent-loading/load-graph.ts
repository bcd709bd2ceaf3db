import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import type { Graph, GraphError } from "@autograms/runtime";
import { CliError } from "./cli-error.js";
import { jsonFault, readText } from "./files.js";
import type { DiagnosticSink } from "./compile-agent.js";
import { notAGraph } from "./graph-format.js";
import { displayPath, inProject, refuseImportsOutside, refuseOutside, type Project } from "./project-files.js";

/** The agent's TypeScript source, found and checked to be the text the graph was compiled from. */
export interface AgentSource {
  /** Absolute path. */
  path: string;
  /** The path relative to the working directory, as messages and coverage reports name it. */
  display: string;
  text: string;
}

export interface LoadedAgent {
  /** The file given on the command line. */
  file: string;
  graph: Graph;
  /** Null when the source is not at hand (a graph whose agent file moved, changed or never existed). */
  source: AgentSource | null;
  /** The agent file's folder: tool modules are resolved from it, as the agent's imports are. */
  baseDir: string;
  /** What breaks the reference rules in a graph file loaded with `keepBrokenReferences`; else empty. */
  brokenReferences: GraphError[];
}

const TYPESCRIPT = /\.[cm]?tsx?$/;

/**
 * Reads an agent (.ts, compiled here; diagnostics go to stderr tsc-style) or a graph file (.json,
 * validated). Throws a CliError when there is nothing sound to run. With a `project`, the file must be inside it
 * (links resolved) and a graph's source is looked for only there. `keepBrokenReferences`: a graph
 * file that breaks only reference rules (a transition to a missing node) is still returned, with
 * those errors, so that it can be drawn or exported for inspection. `typeCheck`: an agent is
 * type-checked too (`compile`, `chat` and `serve` do, unless --no-typecheck).
 */
export async function loadAgentGraph(
  file: string,
  options: {
    keepBrokenReferences?: boolean;
    diagnostics?: DiagnosticSink;
    project?: Project;
    typeCheck?: boolean;
  } = {},
): Promise<LoadedAgent> {
  const path = resolve(file);
  // What a server shows (its sources, a failed build's code frames) comes from its project only.
  if (options.project) refuseOutside(options.project, file);
  const text = readText(file);
  if (TYPESCRIPT.test(file)) {
    const { compileAgent } = await import("./compile-agent.js");
    const display = displayPath(path);
    if (options.project && options.typeCheck) refuseImportsOutside(options.project, path, text);
    const compiled = compileAgent(text, display, options.diagnostics, options.typeCheck ? path : undefined);
    if (compiled.graph === null) throw new CliError(compiled.failure);
    return {
      file,
      graph: compiled.graph,
      source: { path, display, text },
      baseDir: dirname(path),
      brokenReferences: [],
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new CliError(`'${file}' is neither an agent (.ts) nor graph JSON: ${jsonFault(err)}`);
  }
  const problem = notAGraph(value);
  if (problem) throw new CliError(`'${file}' ${problem}`);
  // Loaded here, not at the top: the validator compiles its JSON Schema when loaded, which an agent
  // that is compiled does not need.
  const { validateGraph } = await import("./validate-graph.js");
  const checked = validateGraph(value);
  const graph = value as Graph;
  const brokenReferences = checked.valid ? [] : checked.errors;
  if (!checked.valid && !(options.keepBrokenReferences && checked.errors.every(isReferenceError))) {
    const where = graph.source?.file ?? file;
    const lines = checked.errors.map(
      (e) => `  ${e.loc ? `${where}:${e.loc.line}:${e.loc.column}` : `at ${e.path || "/"}`}: ${e.message}`,
    );
    throw new CliError(`'${file}' is not a valid graph:\n${lines.join("\n")}`);
  }
  const found = findSource(path, graph);
  const source = found && options.project && !inProject(options.project, found.path) ? null : found;
  return { file, graph, source, baseDir: source ? dirname(source.path) : dirname(path), brokenReferences };
}

/**
 * Reference errors name their node (or are about a function's entry or the start); any other is a
 * schema error: the shape itself is wrong, and there is nothing sound to draw.
 */
function isReferenceError(e: GraphError): boolean {
  return e.node !== undefined || /^\/functions\/[^/]+\/entry$|^\/start$/.test(e.path);
}

/**
 * The graph names its source relative to where it was compiled. Look where its source map says
 * (written beside the graph, relative to it), then relative to the working directory, then beside
 * the graph; accept only the text whose hash the graph records, so code frames never show other lines.
 */
function findSource(graphPath: string, graph: Graph): AgentSource | null {
  const recorded = graph.source;
  if (!recorded) return null;
  const candidates: string[] = [];
  const mapSource = sourceFromMap(`${graphPath}.map`);
  if (mapSource) candidates.push(mapSource);
  candidates.push(isAbsolute(recorded.file) ? recorded.file : resolve(recorded.file));
  candidates.push(
    join(dirname(graphPath), recorded.file.slice(recorded.file.replace(/\\/g, "/").lastIndexOf("/") + 1)),
  );
  for (const path of candidates) {
    if (!existsSync(path)) continue;
    const text = readFileSync(path, "utf8");
    if (createHash("sha256").update(text).digest("hex") === recorded.sha256)
      return { path, display: displayPath(path), text };
  }
  return null;
}

function sourceFromMap(mapPath: string): string | null {
  try {
    const map = JSON.parse(readFileSync(mapPath, "utf8")) as { sources?: unknown };
    const first = Array.isArray(map.sources) ? map.sources[0] : undefined;
    return typeof first === "string" ? resolve(dirname(mapPath), first) : null;
  } catch {
    return null;
  }
}

/**
 * The agent source as traces and coverage name it: relative to the working directory when the file
 * is at hand (so editors and coverage viewers find it), else as the graph records it.
 */
export function sourceName(agent: LoadedAgent): string {
  return agent.source?.display ?? agent.graph.source?.file ?? "<graph>";
}
