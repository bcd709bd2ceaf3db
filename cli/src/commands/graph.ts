import { Option, type Command } from "commander";
import type { GraphFlags } from "../actions/graph.js";

export function registerGraph(program: Command): void {
  program
    .command("graph")
    .summary("draw an agent's graph: Mermaid, Graphviz DOT or an HTML page")
    .description(
      "draw an agent's graph: a Mermaid flowchart (GitHub renders it in a ```mermaid block), Graphviz DOT, or a self-contained HTML page (nodes linked to their source lines, a trace overlaid); one subgraph per function, decisions labelled with their answers or conditions",
    )
    .argument("<file>", "an agent (.ts, compiled first) or a graph (.json)")
    .addOption(
      new Option("-f, --format <format>", "the drawing language")
        .choices(["mermaid", "dot", "html"])
        .default("mermaid"),
    )
    .option("-o, --out <file>", "where to write the picture (default: stdout)")
    .option(
      "--trace <file>",
      "html: overlay a trace written with --trace (visits, transitions taken, the path step by step)",
    )
    .addOption(
      new Option(
        "--view <view>",
        "raw: every node the compiler made; code: its nodes folded into the statements they came from, labels quoting the source",
      )
        .choices(["raw", "code"])
        .default("raw"),
    )
    .addOption(
      new Option("--link <style>", "html: how nodes link to their source lines")
        .choices(["relative", "vscode"])
        .default("relative"),
    )
    .action(async (file: string, flags: GraphFlags) => (await import("../actions/graph.js")).graphCommand(file, flags));
}
