import type { Command } from "commander";
import type { Memory, TraceSink } from "@autograms/runtime";
import type { LoadedAgent } from "../agent-loading/load-graph.js";
import { addModelOptions, type ModelFlags } from "../agent-loading/model.js";
import { reportError } from "../agent-loading/report-error.js";

interface ChatFlags extends ModelFlags {
  memory?: string;
  trace?: string;
}

export function registerChat(program: Command): void {
  const command = program
    .command("chat")
    .description("talk with an agent in the terminal, one line per turn (stdin may be piped); the agent speaks first; /quit or end of input stops")
    .argument("<file>", "an agent (.ts, compiled first) or a graph (.json)")
    .option("--memory <file>", "resume the conversation saved in this file, if it exists, and save it there after every turn");
  addModelOptions(command)
    .option("--trace <file>", "write every step as one JSON event per line (docs/runtime.md); a conversation resumed with --memory goes on in the same file")
    .action(async (file: string, flags: ChatFlags) => {
      let loaded: LoadedAgent | null = null;
      try {
        await chat(file, flags, (l) => (loaded = l));
      } catch (err) {
        process.exitCode = await reportError("chat", err, loaded);
      }
    });
}

async function chat(file: string, flags: ChatFlags, onLoaded: (loaded: LoadedAgent) => void): Promise<void> {
  const { openAgent } = await import("../agent-loading/open-agent.js");
  const { readMemoryFile, writeMemoryFile, lastReply } = await import("../agent-loading/memory-file.js");
  const { agent, loaded } = await openAgent(file, flags, { modelRequired: true, onLoaded });
  let memory: Memory | null = flags.memory === undefined ? null : readMemoryFile(flags.memory, loaded.graph.agent);
  const save = (m: Memory) => flags.memory !== undefined && writeMemoryFile(flags.memory, m);

  const { JsonlTraceWriter } = await import("../trace/jsonl-writer.js");
  const { sourceName } = await import("../agent-loading/load-graph.js");
  // A resumed conversation's trace goes on in the same file, so the file replays all of it.
  const resumed = memory !== null;
  if (flags.trace !== undefined && resumed) (await import("../trace/resume-trace.js")).trimToLastTurn(flags.trace);
  const writer = flags.trace === undefined ? null : new JsonlTraceWriter(flags.trace, sourceName(loaded), { append: resumed });
  const trace: TraceSink | undefined = writer?.sink();

  const { createInterface } = await import("node:readline");
  const interactive = process.stdin.isTTY === true;
  const rl = createInterface({ input: process.stdin, output: interactive ? process.stdout : undefined, terminal: interactive });
  rl.setPrompt("You: ");
  // Ctrl-C on a terminal: the turns so far are saved; the one under way is dropped.
  rl.on("SIGINT", () => {
    process.stderr.write("\n");
    process.exit(130);
  });
  // Taken before the first await, so lines piped in while the agent is busy wait in its queue.
  const lines = rl[Symbol.asyncIterator]();
  const say = (text: string) => process.stdout.write(`${agent.config.agentName}: ${text}\n`);

  try {
    if (memory === null) {
      const first = await agent.reply("", undefined, { trace });
      memory = first.memory;
      save(memory);
      if (first.reply !== null) say(first.reply);
      if (first.done) return ended();
    } else {
      process.stderr.write(`(resuming the conversation saved in ${flags.memory}, after ${memory.turn} turns)\n`);
      const last = lastReply(memory);
      if (last !== undefined) say(last);
    }
    for (;;) {
      if (interactive) rl.prompt();
      const next = await lines.next();
      if (next.done || next.value.trim() === "/quit") return;
      const r = await agent.reply(next.value, memory, { trace });
      memory = r.memory;
      save(memory);
      if (r.reply !== null) say(r.reply);
      if (r.done) return ended();
    }
  } finally {
    rl.close();
    writer?.close();
  }
}

function ended(): void {
  process.stderr.write("(the conversation has ended)\n");
}
