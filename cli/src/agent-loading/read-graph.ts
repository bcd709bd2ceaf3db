import { readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import type { Graph } from "@autograms/runtime";

/**
 * Reads the graph an agent compiles to (.ts) or a graph file (.json), printing what is wrong to
 * stderr. A .json graph that breaks only reference rules (a transition to a missing node) is still
 * returned, marked not valid, so it can be drawn or exported for inspection.
 */
export async function loadGraph(command: string, file: string): Promise<{ graph: Graph; valid: boolean } | null> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (err as Error).message;
    process.stderr.write(`autograms ${command}: cannot read '${file}': ${reason}\n`);
    return null;
  }
  if (/\.[cm]?tsx?$/.test(file)) {
    const { compileAgent } = await import("./compile-agent.js");
    const compiled = compileAgent(text, relative(process.cwd(), resolve(file)).split("\\").join("/"));
    if (compiled.graph === null) {
      process.stderr.write(`${compiled.failure}\n`);
      return null;
    }
    return { graph: compiled.graph, valid: true };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    process.stderr.write(`autograms ${command}: '${file}' is neither an agent (.ts) nor graph JSON: ${(err as Error).message}\n`);
    return null;
  }
  const { validateGraph } = await import("./validate-graph.js");
  const result = validateGraph(value);
  if (result.valid) return { graph: result.graph, valid: true };
  for (const e of result.errors) process.stderr.write(`${file}: error: ${e.message}${e.loc ? ` (agent line ${e.loc.line})` : ""}\n`);
  // Reference errors name their node (or are about a function entry or the start); anything else
  // is a schema error: the shape itself is wrong and there is nothing sound to draw.
  const shapeBroken = result.errors.some((e) => e.node === undefined && !/^\/functions\/[^/]+\/entry$|^\/start$/.test(e.path));
  return shapeBroken ? null : { graph: value as Graph, valid: false };
}
