import { toDot, toMermaid, type GraphView, type ViewOptions } from "@autograms/compiler";
import { CliError } from "../agent-loading/cli-error.js";
import { loadAgentGraph } from "../agent-loading/load-graph.js";
import { reporting } from "../agent-loading/report-error.js";
import { writeOutput } from "../write-output.js";

export interface GraphFlags {
  format: "mermaid" | "dot" | "html";
  out?: string;
  trace?: string;
  link: "relative" | "vscode";
  /** `raw` (the default): every node the compiler made; `code`: folded into the statements they came from. */
  view: GraphView;
}

export function graphCommand(file: string, flags: GraphFlags): Promise<void> {
  return reporting("graph", () => draw(file, flags));
}

async function draw(file: string, flags: GraphFlags): Promise<number> {
  if (flags.trace !== undefined && flags.format !== "html")
    throw new CliError("--trace is overlaid on the HTML page: add --format html", 2);
  const { graph, brokenReferences, source } = await loadAgentGraph(file, { keepBrokenReferences: true });
  // A graph with dangling names is still drawn (they show as "missing"), but it is not valid.
  for (const e of brokenReferences)
    process.stderr.write(`${file}: error: ${e.message}${e.loc ? ` (agent line ${e.loc.line})` : ""}\n`);
  const view: ViewOptions = source ? { view: flags.view, source: source.text } : { view: flags.view };
  const picture =
    flags.format === "html"
      ? await (await import("../debugger/graph-page.js")).graphPage(graph, { ...flags, view })
      : flags.format === "dot"
        ? toDot(graph, view)
        : toMermaid(graph, view);
  writeOutput(picture, flags.out);
  return brokenReferences.length ? 1 : 0;
}
