import { argumentCountProblem, type JsonValue, type SandboxPool } from "@autograms/runtime";
import { CliError } from "../agent-loading/cli-error.js";
import { sourceName, type LoadedAgent } from "../agent-loading/load-graph.js";
import type { ModelFlags } from "../agent-loading/model-options.js";
import { openAgent } from "../agent-loading/open-agent.js";
import { reporting } from "../agent-loading/report-error.js";
import { cliSandboxPool } from "../agent-loading/sandbox-pool.js";
import { logPrinter } from "../terminal/print-log.js";
import { fanOut, JsonlTraceWriter } from "../trace/jsonl-writer.js";

export interface RunFlags extends ModelFlags {
  trace?: string;
}

export function runCommand(file: string, name: string, args: string[], flags: RunFlags): Promise<void> {
  return reporting("run", (onLoaded) => run(file, name, args.map(parseArgument), flags, onLoaded), {
    traced: true,
  });
}

function parseArgument(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

async function run(
  file: string,
  name: string,
  args: JsonValue[],
  flags: RunFlags,
  onLoaded: (loaded: LoadedAgent) => void,
): Promise<void> {
  // `run` executes whatever a graph file holds: its code runs in a child process, so that even
  // code that got past the sandbox's limits ends this run with an error, never the process.
  const pool = cliSandboxPool();
  // The child process starts while the agent loads, not when its first code runs.
  void pool.evaluate("0", {}).catch(() => undefined);
  try {
    await runIsolated(file, name, args, flags, onLoaded, pool);
  } finally {
    await pool.close();
  }
}

async function runIsolated(
  file: string,
  name: string,
  args: JsonValue[],
  flags: RunFlags,
  onLoaded: (loaded: LoadedAgent) => void,
  pool: SandboxPool,
): Promise<void> {
  const { agent, loaded } = await openAgent(file, flags, { modelRequired: false, onLoaded, isolation: pool });
  const info = Object.prototype.hasOwnProperty.call(loaded.graph.functions, name)
    ? loaded.graph.functions[name]
    : undefined;
  if (!info) {
    const known = Object.keys(loaded.graph.functions);
    throw new CliError(`the agent has no function '${name}'${known.length ? ` (it has ${known.join(", ")})` : ""}`, 2);
  }
  const problem = argumentCountProblem(name, info, args.length);
  if (problem) throw new CliError(problem, 2);
  const writer = flags.trace === undefined ? null : new JsonlTraceWriter(flags.trace, sourceName(loaded));
  try {
    // What the agent's code prints goes to stderr as it runs; the value alone to stdout.
    const value = await agent.call(name, args, { trace: fanOut(writer?.sink(), logPrinter(sourceName(loaded))) });
    process.stdout.write(JSON.stringify(value) + "\n");
  } finally {
    writer?.close();
  }
}
