// `autograms graph --format html`: the page, with its source links and an optional trace.
import { dirname, relative, resolve } from "node:path";
import { toHtml, type ViewOptions } from "@autograms/compiler";
import { parseTrace, type Graph, type Loc } from "@autograms/runtime";
import { readText } from "../agent-loading/files.js";

export interface GraphPageFlags {
  out?: string;
  trace?: string;
  /** `relative`: a path from the page to the agent file, with #L<line>; `vscode`: vscode://file/... links. */
  link: "relative" | "vscode";
  /** What the page shows (the compiler's every node by default) and the agent source its code view quotes. */
  view?: ViewOptions;
}

/** Links that open a line of `source` (an absolute path) in VS Code. */
export const vscodeLink = (source: string) => (loc: Loc) =>
  `vscode://file${encodeURI(source.split("\\").join("/"))}:${loc.line}:${loc.column}`;

export async function graphPage(graph: Graph, flags: GraphPageFlags): Promise<string> {
  const trace = flags.trace === undefined ? undefined : parseTrace(readText(flags.trace, "the trace "), flags.trace);
  const file = graph.source?.file;
  // The graph names its source relative to where it was compiled: here, the working directory.
  const source = file === undefined ? undefined : resolve(file);
  const pageDir = flags.out === undefined || flags.out === "-" ? process.cwd() : dirname(resolve(flags.out));
  const sourceLink =
    source === undefined
      ? undefined
      : flags.link === "vscode"
        ? vscodeLink(source)
        : (loc: Loc) => `${encodeURI(relative(pageDir, source).split("\\").join("/"))}#L${loc.line}`;
  return toHtml(graph, { ...flags.view, ...(trace ? { trace } : {}), ...(sourceLink ? { sourceLink } : {}) });
}
