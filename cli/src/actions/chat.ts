import { createInterface } from "node:readline";
import type { Memory, TraceSink } from "@autograms/runtime";
import { sourceName, type LoadedAgent } from "../agent-loading/load-graph.js";
import { lastReply, lockMemoryFile, readMemoryFile, writeMemoryFile } from "../agent-loading/memory-file.js";
import type { ModelFlags } from "../agent-loading/model-options.js";
import { openAgent } from "../agent-loading/open-agent.js";
import { reporting } from "../agent-loading/report-error.js";
import { plainText } from "../terminal/plain-text.js";
import { JsonlTraceWriter } from "../trace/jsonl-writer.js";
import { trimToLastTurn } from "../trace/resume-trace.js";

export interface ChatFlags extends ModelFlags {
  memory?: string;
  trace?: string;
}

export function chatCommand(file: string, flags: ChatFlags): Promise<void> {
  return reporting("chat", (onLoaded) => chat(file, flags, onLoaded));
}

async function chat(file: string, flags: ChatFlags, onLoaded: (loaded: LoadedAgent) => void): Promise<void> {
  const { agent, loaded } = await openAgent(file, flags, { modelRequired: true, onLoaded });
  let memory: Memory | null = null;
  if (flags.memory !== undefined) {
    lockMemoryFile(flags.memory);
    memory = readMemoryFile(flags.memory, loaded.graph.agent);
    // Checked whole (checksum, graph) before any of it reaches the terminal.
    if (memory !== null) agent.checkMemory(memory);
  }
  const save = (m: Memory) => flags.memory !== undefined && writeMemoryFile(flags.memory, m);

  // A resumed conversation's trace goes on in the same file, so the file replays all of it.
  const resumed = memory !== null;
  if (flags.trace !== undefined && resumed) trimToLastTurn(flags.trace);
  const writer = flags.trace === undefined ? null : new JsonlTraceWriter(flags.trace, sourceName(loaded), { append: resumed });
  const trace: TraceSink | undefined = writer?.sink();

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
  const say = (text: string) => process.stdout.write(plainText(`${agent.config.agentName}: ${text}`) + "\n");

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
