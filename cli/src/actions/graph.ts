import { toDot, toMermaid } from "@autograms/compiler";
import { loadGraph } from "../agent-loading/read-graph.js";
import { writeOutput } from "../write-output.js";

export interface GraphFlags {
  format: "mermaid" | "dot" | "html";
  out?: string;
  trace?: string;
  link: "relative" | "vscode";
}

export async function graphCommand(file: string, flags: GraphFlags): Promise<void> {
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
  const picture = flags.format === "html" ? await (await import("../debugger/graph-page.js")).graphPage(graph.graph, flags)
    : flags.format === "dot" ? toDot(graph.graph) : toMermaid(graph.graph);
  writeOutput(picture, flags.out);
  // A graph with dangling names is still drawn (they show as "missing"), but it is not valid.
  process.exitCode = graph.valid ? 0 : 1;
}
