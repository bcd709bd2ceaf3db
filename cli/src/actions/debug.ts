import { createInterface } from "node:readline";
import { closeAtEnd } from "../agent-loading/command-scope.js";
import type { LoadedAgent } from "../agent-loading/load-graph.js";
import type { ModelFlags } from "../agent-loading/model-options.js";
import { reporting } from "../agent-loading/report-error.js";
import { openSession } from "../debugger/open-session.js";
import { TerminalDebugger } from "../debugger/terminal.js";
import { plainText } from "../terminal/plain-text.js";

export interface DebugFlags extends ModelFlags {
  replay?: string;
  conversation: string;
  break?: string[];
}

export function debugCommand(file: string, flags: DebugFlags): Promise<void> {
  return reporting("debug", (onLoaded) => debug(file, flags, onLoaded));
}

async function debug(file: string, flags: DebugFlags, onLoaded: (loaded: LoadedAgent) => void): Promise<number> {
  const { session, source, close } = await openSession(file, flags, { ...flags, onLoaded });
  closeAtEnd(close);
  const interactive = process.stdin.isTTY === true;
  const rl = createInterface({
    input: process.stdin,
    output: interactive ? process.stdout : undefined,
    terminal: interactive,
  });
  // Taken at once, so lines piped in while the run is busy wait in the iterator's queue.
  const lines = rl[Symbol.asyncIterator]();
  const terminal = new TerminalDebugger(session, source, {
    // Replies, thoughts and values are the model's or the memory's text.
    out: (text) => process.stdout.write(plainText(text)),
    err: (text) => process.stderr.write(plainText(text)),
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
  process.stdout.write(
    `Debugging ${session.graph.agent} (${source.file}), ${session.graph.nodes.length} nodes${flags.replay ? `, replaying ${flags.replay}` : ""}. Type help for the commands.\n`,
  );
  for (const spec of flags.break ?? []) terminal.command(`break ${spec}`);
  try {
    return await terminal.run();
  } finally {
    rl.close();
  }
}
