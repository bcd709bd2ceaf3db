import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { compile } from "@autograms/compiler";
import type { Graph } from "@autograms/runtime";

export const fixturesDir = fileURLToPath(new URL("../fixtures", import.meta.url));

export function fixtureSource(name: string): string {
  return readFileSync(`${fixturesDir}/${name}/input.ts`, "utf8");
}

/** Compiles a source that must compile, failing the test with its diagnostics otherwise. */
export function compileOk(source: string, fileName = "agent.ts"): Graph {
  const { graph, diagnostics } = compile(source, { fileName });
  const errors = diagnostics.filter((d) => d.severity === "error");
  if (!graph || errors.length) {
    throw new Error(
      `expected a graph, got:\n${errors.map((d) => `${d.line}:${d.column} ${d.code}: ${d.message}`).join("\n")}`,
    );
  }
  return graph;
}

/** Diagnostic codes (with line) of a source, for compact assertions. */
export function codes(source: string): string[] {
  return compile(source, { fileName: "agent.ts" }).diagnostics.map((d) => `${d.line}:${d.code}`);
}
