import type { Graph } from "@autograms/runtime";

/** The graph format version this autograms reads (the Graph type pins it). */
const VERSION: Graph["version"] = 1;

/**
 * Why a JSON value is not a graph this autograms reads, when it is not one at all or another
 * version of one (said before the schema check, whose message would only be that a constant
 * differs); null when it claims to be one. Reads after the file's name: "'x.json' is ...".
 */
export function notAGraph(value: unknown): string | null {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return 'is JSON, but not a graph (an object with "format": "autograms-graph")';
  const { format, version } = value as { format?: unknown; version?: unknown };
  if (format === undefined) return 'is JSON, but not a graph (it has no "format": "autograms-graph")';
  if (format !== "autograms-graph")
    return `is JSON, but not a graph: its "format" is ${JSON.stringify(format)}, not "autograms-graph"`;
  if (version !== VERSION)
    return `is a graph of format version ${JSON.stringify(version)}, and this autograms reads version ${VERSION}: compile the agent again`;
  return null;
}
