import { toDot, toMermaid } from "@autograms/compiler";
import { CliError } from "../agent-loading/cli-error.js";
import { loadAgentGraph } from "../agent-loading/load-graph.js";
import { reporting } from "../agent-loading/report-error.js";
import { writeOutput } from "../write-output.js";

export interface GraphFlags {
  format: "mermaid" | "dot" | "html";
  out?: string;
  trace?: string;
  link: "relative" | "vscode";
}

export function graphCommand(file: string, flags: GraphFlags): Promise<void> {
  return reporting("graph", () => draw(file, flags));
}

async function draw(file: string, flags: GraphFlags): Promise<number> {
  if (flags.trace !== undefined && flags.format !== "html") throw new CliError("--trace is overlaid on the HTML page: add --format html", 2);
  const { graph, brokenReferences } = await loadAgentGraph(file, { keepBrokenReferences: true });
  // A graph with dangling names is still drawn (they show as "missing"), but it is not valid.
  for (const e of brokenReferences) process.stderr.write(`${file}: error: ${e.message}${e.loc ? ` (agent line ${e.loc.line})` : ""}\n`);
  const picture = flags.format === "html" ? await (await import("../debugger/graph-page.js")).graphPage(graph, flags)
    : flags.format === "dot" ? toDot(graph) : toMermaid(graph);
  writeOutput(picture, flags.out);
  return brokenReferences.length ? 1 : 0;
}
