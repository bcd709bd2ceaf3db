/**
 * Runtime errors printed as compile diagnostics are: `file:line:column - error code: message` and a
 * code frame of the agent source around the node that failed (for a model failure, the node that
 * was asking).
 */
import { createRequire } from "node:module";
import type { Graph, Loc } from "@autograms/graph";

interface FramePosition {
  start: { line: number; column?: number };
  end?: { line: number; column?: number };
}
type CodeFrameColumns = (
  source: string,
  position: FramePosition,
  options?: { highlightCode?: boolean; linesAbove?: number; linesBelow?: number },
) => string;

// Loaded on first use: a run that never fails should not pay for it.
let codeFrameColumns: CodeFrameColumns | undefined;

/** Nodes longer than this are marked on their first line only, so the frame stays short. */
const MAX_MARKED_LINES = 4;

export interface FormatErrorOptions {
  color?: boolean;
  /** Locates an error that names a node but carries no position (a bare model error). */
  graph?: Graph;
}

interface Located {
  code?: string;
  node?: string;
  file?: string;
  loc?: Loc;
  detail: string;
}

function describe(error: unknown, graph: Graph | undefined): Located {
  if (!(error instanceof Error)) return { detail: String(error) };
  const e = error as Error & {
    code?: unknown;
    node?: unknown;
    file?: unknown;
    line?: unknown;
    column?: unknown;
    detail?: unknown;
  };
  const code = typeof e.code === "string" ? e.code : undefined;
  const node = typeof e.node === "string" ? e.node : undefined;
  // AgentError keeps the message without its location in `detail`; anything else has only a message.
  let detail = typeof e.detail === "string" && e.name === "AgentError" ? e.detail : e.message;
  const point =
    typeof e.line === "number" && typeof e.column === "number"
      ? { line: e.line, column: e.column, endLine: e.line, endColumn: e.column }
      : undefined;
  // The graph's loc of the node has the node's extent; the error carries only its start.
  const loc = (node === undefined ? undefined : graph?.nodes.find((n) => n.name === node)?.loc) ?? point;
  const file = typeof e.file === "string" ? e.file : graph?.source?.file;
  if (node !== undefined && e.name === "AgentError") detail = `node '${node}': ${detail}`;
  return { code, node, file, loc, detail };
}

/**
 * Formats any error a run throws. With the agent's source text (and a position on the error, or a
 * graph to find its node in) it adds a code frame; without them it is the located message alone.
 */
export function formatAgentError(error: unknown, sourceText?: string, options: FormatErrorOptions = {}): string {
  const { code, file, loc, detail } = describe(error, options.graph);
  const kind = code === undefined ? "error" : `error ${code}`;
  if (!loc) return `${kind}: ${detail}\n`;
  const heading = `${file ?? "<graph>"}:${loc.line}:${loc.column} - ${kind}: ${detail}`;
  const lines = sourceText?.split("\n");
  if (sourceText === undefined || !lines || loc.line > lines.length) return `${heading}\n`;
  codeFrameColumns ??= (createRequire(import.meta.url)("@babel/code-frame") as { codeFrameColumns: CodeFrameColumns })
    .codeFrameColumns;
  const short = loc.endLine - loc.line < MAX_MARKED_LINES;
  const end = short
    ? { line: loc.endLine, column: loc.endColumn }
    : { line: loc.line, column: lines[loc.line - 1]!.length + 1 };
  const position: FramePosition =
    end.line > loc.line || end.column > loc.column
      ? { start: { line: loc.line, column: loc.column }, end }
      : { start: { line: loc.line, column: loc.column } };
  const frame = codeFrameColumns(sourceText, position, {
    highlightCode: options.color ?? false,
    linesAbove: 1,
    linesBelow: 1,
  });
  return `${heading}\n${frame}\n`;
}
