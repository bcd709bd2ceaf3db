import type { Command } from "commander";
import type { LoadedAgent } from "../agent-loading/load-graph.js";
import { addModelOptions, type ModelFlags } from "../agent-loading/model.js";
import { reportError } from "../agent-loading/report-error.js";

interface DebugFlags extends ModelFlags {
  replay?: string;
  conversation: string;
  break: string[];
}

export function registerDebug(program: Command): void {
  const command = program
    .command("debug")
    .description("debug an agent in the terminal: breakpoints on lines of its .ts file or on functions, step node by node, print variables and scopes, show the function stack; on a live model or replaying a recorded trace (docs/debugging.md)")
    .argument("<file>", "an agent (.ts, compiled first) or a graph (.json)")
    .option("--replay <trace.jsonl>", "replay a conversation recorded with --trace instead of asking a model")
    .option("--conversation <n>", "which conversation of a trace that holds several (as simulate writes)", "1")
    .option("-b, --break <spec>", "a breakpoint to start with: LINE, FILE:LINE or FUNCTION (repeatable)", (v: string, all: string[]) => [...all, v], []);
  addModelOptions(command).action(async (file: string, flags: DebugFlags) => {
    let loaded: LoadedAgent | null = null;
    try {
      process.exitCode = await debug(file, flags, (l) => (loaded = l));
    } catch (err) {
      process.exitCode = await reportError("debug", err, loaded);
    }
  });
}

async function debug(file: string, flags: DebugFlags, onLoaded: (loaded: LoadedAgent) => void): Promise<number> {
  const { openSession } = await import("../debugger/open-session.js");
  const { session, source } = await openSession(file, flags, { ...flags, onLoaded });
  const { TerminalDebugger } = await import("../debugger/terminal.js");
  const { createInterface } = await import("node:readline");
  const interactive = process.stdin.isTTY === true;
  const rl = createInterface({ input: process.stdin, output: interactive ? process.stdout : undefined, terminal: interactive });
  // Taken at once, so lines piped in while the run is busy wait in the iterator's queue.
  const lines = rl[Symbol.asyncIterator]();
  const terminal = new TerminalDebugger(session, source, {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    read: async () => {
      const next = await lines.next();
      return next.done ? null : next.value;
    },
    interactive,
    prompt: (text) => {
      if (!interactive) return;
      rl.setPrompt(text);
      rl.prompt();
    },
  });
  // Ctrl-C on a terminal: readline would only close its input. While the run is busy it pauses;
  // at a prompt the session ends.
  rl.on("SIGINT", () => {
    if (terminal.interrupt()) return;
    process.stdout.write("\n");
    rl.close();
    process.exit(130);
  });
  process.stdout.write(`Debugging ${session.graph.agent} (${source.file}), ${session.graph.nodes.length} nodes${flags.replay ? `, replaying ${flags.replay}` : ""}. Type help for the commands.\n`);
  for (const spec of flags.break) terminal.command(`break ${spec}`);
  try {
    return await terminal.run();
  } finally {
    rl.close();
  }
}
