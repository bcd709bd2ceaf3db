import type { Command } from "commander";
import type { JsonValue } from "@autograms/runtime";
import type { LoadedAgent } from "../agent-loading/load-graph.js";
import { addModelOptions, type ModelFlags } from "../agent-loading/model.js";
import { reportError } from "../agent-loading/report-error.js";

interface RunFlags extends ModelFlags {
  trace?: string;
}

export function registerRun(program: Command): void {
  const command = program
    .command("run")
    .description("call one of an agent's functions and print its return value as JSON; a model is needed only if the function asks one")
    .argument("<file>", "an agent (.ts, compiled first) or a graph (.json)")
    .argument("<function>", "the function to call")
    .argument("[args...]", "its arguments: JSON where they parse (10, '[3, 1, 2]', '\"10\"', true), else strings");
  addModelOptions(command)
    .option("--trace <file>", "write every step as one JSON event per line (docs/runtime.md)")
    .action(async (file: string, name: string, args: string[], flags: RunFlags) => {
      let loaded: LoadedAgent | null = null;
      try {
        await run(file, name, args.map(parseArgument), flags, (l) => (loaded = l));
      } catch (err) {
        process.exitCode = await reportError("run", err, loaded);
      }
    });
}

function parseArgument(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

async function run(file: string, name: string, args: JsonValue[], flags: RunFlags, onLoaded: (loaded: LoadedAgent) => void): Promise<void> {
  const { CliError } = await import("../agent-loading/cli-error.js");
  const { openAgent } = await import("../agent-loading/open-agent.js");
  const { agent, loaded } = await openAgent(file, flags, { modelRequired: false, onLoaded });
  const info = Object.prototype.hasOwnProperty.call(loaded.graph.functions, name) ? loaded.graph.functions[name] : undefined;
  if (!info) {
    const known = Object.keys(loaded.graph.functions);
    throw new CliError(`the agent has no function '${name}'${known.length ? ` (it has ${known.join(", ")})` : ""}`, 2);
  }
  if (args.length > info.params.length) {
    throw new CliError(`'${name}' takes ${info.params.length} argument${info.params.length === 1 ? "" : "s"}${info.params.length ? ` (${info.params.join(", ")})` : ""}, got ${args.length}`, 2);
  }
  const { JsonlTraceWriter } = await import("../trace/jsonl-writer.js");
  const { sourceName } = await import("../agent-loading/load-graph.js");
  const writer = flags.trace === undefined ? null : new JsonlTraceWriter(flags.trace, sourceName(loaded));
  try {
    const value = await agent.call(name, args, writer ? { trace: writer.sink() } : {});
    process.stdout.write(JSON.stringify(value) + "\n");
  } finally {
    writer?.close();
  }
}
