import { Option, type Command } from "commander";
import { readFileSync, writeFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import type { Graph } from "@autograms/runtime";

interface GraphFlags {
  format: "mermaid" | "dot" | "html";
  out?: string;
  trace?: string;
  link: "relative" | "vscode";
}

export function registerGraph(program: Command): void {
  program
    .command("graph")
    .description("draw an agent's graph: a Mermaid flowchart (GitHub renders it in a ```mermaid block), Graphviz DOT, or a self-contained HTML page (nodes linked to their source lines, a trace overlaid); one subgraph per function, decisions labelled with their answers or conditions")
    .argument("<file>", "an agent (.ts, compiled first) or a graph (.json)")
    .addOption(new Option("-f, --format <format>", "the drawing language").choices(["mermaid", "dot", "html"]).default("mermaid"))
    .option("-o, --out <file>", "where to write the picture (default: stdout)")
    .option("--trace <file>", "html: overlay a trace written with --trace (visits, transitions taken, the path step by step)")
    .addOption(new Option("--link <style>", "html: how nodes link to their source lines").choices(["relative", "vscode"]).default("relative"))
    .action(async (file: string, flags: GraphFlags) => {
      if (flags.trace !== undefined && flags.format !== "html") {
        process.stderr.write("autograms graph: --trace is overlaid on the HTML page: add --format html\n");
        process.exitCode = 2;
        return;
      }
      const graph = await loadGraph("graph", file);
      if (!graph) {
        process.exitCode = 1;
        return;
      }
      const { toMermaid, toDot } = await import("@autograms/compiler");
      const picture = flags.format === "html" ? await (await import("../debugger/graph-page.js")).graphPage(graph.graph, flags)
        : flags.format === "dot" ? toDot(graph.graph) : toMermaid(graph.graph);
      writeOutput(picture, flags.out);
      // A graph with dangling names is still drawn (they show as "missing"), but it is not valid.
      process.exitCode = graph.valid ? 0 : 1;
    });
}

/** Writes a result to a file, or to stdout when there is no file or it is "-". */
export function writeOutput(text: string, out: string | undefined, summary?: string): void {
  if (out === undefined || out === "-") {
    process.stdout.write(text);
    return;
  }
  writeFileSync(out, text);
  if (summary !== undefined) process.stdout.write(`${out} (${summary})\n`);
}

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
    const { compile, formatDiagnostics } = await import("@autograms/compiler");
    const fileName = relative(process.cwd(), resolve(file)).split("\\").join("/");
    const { graph, diagnostics } = compile(text, { fileName });
    if (diagnostics.length) process.stderr.write(formatDiagnostics(diagnostics, text, { color: process.stderr.isTTY }) + "\n");
    if (!graph) {
      const errors = diagnostics.filter((d) => d.severity === "error").length;
      process.stderr.write(`${errors} error${errors === 1 ? "" : "s"} in ${fileName}\n`);
      return null;
    }
    return { graph, valid: true };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    process.stderr.write(`autograms ${command}: '${file}' is neither an agent (.ts) nor graph JSON: ${(err as Error).message}\n`);
    return null;
  }
  const { validateGraph } = await import("@autograms/runtime");
  const result = validateGraph(value);
  if (result.valid) return { graph: result.graph, valid: true };
  for (const e of result.errors) process.stderr.write(`${file}: error: ${e.message}${e.loc ? ` (agent line ${e.loc.line})` : ""}\n`);
  // Reference errors name their node (or are about a function entry or the start); anything else
  // is a schema error: the shape itself is wrong and there is nothing sound to draw.
  const shapeBroken = result.errors.some((e) => e.node === undefined && !/^\/functions\/[^/]+\/entry$|^\/start$/.test(e.path));
  return shapeBroken ? null : { graph: value as Graph, valid: false };
}
