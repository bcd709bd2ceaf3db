import { formatDiagnostics } from "@autograms/compiler";
import { AgentError } from "@autograms/runtime";
import type { LoadedAgent } from "./load-graph.js";
import { CliError } from "./cli-error.js";
import { commandScope, type ScopeOptions } from "./command-scope.js";
import { plainText } from "../terminal/plain-text.js";

/**
 * Prints why a command failed and returns its exit code. Runtime errors at a node read like
 * compiler diagnostics (`file:line:column - error code: ...`) with a code frame of the agent source
 * when the source is at hand; nothing prints a stack trace.
 */
export function reportError(command: string, err: unknown, agent?: LoadedAgent | null): 1 | 2 {
  if (err instanceof CliError) {
    process.stderr.write(`autograms ${command}: ${plainText(err.message)}\n`);
    return err.exitCode;
  }
  if (err instanceof AgentError && err.location !== undefined && err.line !== undefined && err.column !== undefined) {
    // A failure's detail may quote the model (a refusal, a bad answer): no control sequences.
    const message = plainText(err.node === undefined ? err.detail : `node '${err.node}': ${err.detail}`);
    const source = agent?.source;
    if (source) {
      // A node on one line is underlined; for one that spans lines (an exec_node) the frame
      // points at where it starts rather than marking every line of it.
      const loc = agent.graph.nodes.find((n) => n.name === err.node)?.loc;
      const oneLine = loc !== undefined && loc.line === err.line && loc.endLine === loc.line;
      const diagnostic = {
        code: err.code,
        severity: "error" as const,
        message,
        file: err.file ?? source.display,
        line: err.line,
        column: err.column,
        endLine: err.line,
        endColumn: oneLine ? loc.endColumn : err.column,
      };
      process.stderr.write(formatDiagnostics([diagnostic], source.text, { color: process.stderr.isTTY }) + "\n");
    } else {
      process.stderr.write(`${err.location} - error ${err.code}: ${message}\n`);
    }
    return 1;
  }
  const message = plainText(err instanceof Error ? err.message : String(err));
  process.stderr.write(`autograms ${command}: ${err instanceof AgentError ? `error ${err.code}: ` : ""}${message}\n`);
  return 1;
}

/**
 * Runs a command's work in its scope (command-scope.ts: what it opened is closed as it ends) and
 * sets the exit code: the one it returns (0 when none), or on a failure the one `reportError`
 * gives, with the agent's source once the work has loaded it.
 */
export async function reporting(
  command: string,
  work: (onLoaded: (loaded: LoadedAgent) => void) => Promise<number | void>,
  options: ScopeOptions = {},
): Promise<void> {
  let loaded: LoadedAgent | null = null;
  try {
    process.exitCode = (await commandScope(() => work((l) => (loaded = l)), options)) ?? 0;
  } catch (err) {
    process.exitCode = reportError(command, err, loaded);
  }
}
