// The `autograms` command. Each subcommand registers itself here from commands/<name>.ts (its name,
// options and description only); what it does is in actions/, imported when it runs, so a start
// loads only the command that runs (cli/scripts/bundle.mjs).
// Results go to stdout, diagnostics and progress to stderr; exit 0 ok, 1 diagnostics or a failed
// run, 2 usage (docs/cli.md).
import { Command, CommanderError } from "commander";
import { registerCompile } from "./commands/compile.js";
import { registerGraph } from "./commands/graph.js";
import { registerImport, registerExport } from "./commands/spreadsheet.js";
import { registerChat } from "./commands/chat.js";
import { registerRun } from "./commands/run.js";
import { registerSimulate } from "./commands/simulate.js";
import { registerEval } from "./commands/eval.js";
import { registerDebug } from "./commands/debug.js";
import { registerDap } from "./commands/dap.js";
import { registerInit } from "./commands/init.js";
import { registerThreads } from "./commands/threads.js";
import { registerServe } from "./commands/serve.js";
import { registerMcpTypes } from "./commands/mcp-types.js";
import { registerMcp } from "./commands/mcp.js";

function commandLine(): Command {
  const program = new Command("autograms")
    .description("Write conversational agents as TypeScript, compile them to graphs, run and debug them.")
    .version("0.1.0")
    .showHelpAfterError()
    // Everything after a command's name is that command's: `eval list --store URL` reaches `list`.
    .enablePositionalOptions()
    .addHelpText(
      "after",
      "\nEach command has its own --help. Exit codes: 0 success, 1 a failed run or diagnostics, 2 a usage\nerror (`autograms` alone prints this help on stderr and exits 2).",
    )
    .exitOverride();
  registerCompile(program);
  registerGraph(program);
  registerChat(program);
  registerThreads(program);
  registerServe(program);
  registerMcp(program);
  registerMcpTypes(program);
  registerSimulate(program);
  registerEval(program);
  registerRun(program);
  registerDebug(program);
  registerDap(program);
  registerImport(program);
  registerExport(program);
  registerInit(program);
  return program;
}

/**
 * Runs one command line, `argv` as in process.argv (node, the script, then the arguments), with
 * the process's streams, and leaves the exit code in process.exitCode. cli/bin/autograms.js calls
 * it once per process; the tests also call it in their own process, with the streams captured.
 */
export async function main(argv: readonly string[]): Promise<void> {
  // A reader that stops early (`autograms chat ... | head -1`) ends the output, not the program
  // with a stack trace.
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code !== "EPIPE") throw err;
    process.exit(process.exitCode ?? 0);
  });
  try {
    await commandLine().parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version exit 0; every other parse failure is a usage error.
      process.exitCode = err.exitCode === 0 ? 0 : 2;
    } else {
      process.stderr.write(`autograms: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    }
  }
}
