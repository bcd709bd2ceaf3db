import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Memory } from "@autograms/runtime";
import { CliError } from "./cli-error.js";
import { fileProblem } from "./files.js";

/**
 * The saved conversation in `path`, or null when there is none yet. Memory that is not what the
 * runtime writes is refused here with the reason; the runtime checks the rest (checksum, graph)
 * on the first turn. A refused file is never written to.
 */
export function readMemoryFile(path: string, agentName: string): Memory | null {
  if (!existsSync(path)) return null;
  const refuse = (why: string) => new CliError(`cannot resume from '${path}': ${why}; the file is left as it is`);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw refuse(fileProblem(err, "read"));
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw refuse(`it is not valid JSON (${(err as Error).message})`);
  }
  const memory = value as Partial<Memory> | null;
  if (typeof memory !== "object" || memory === null || memory.format !== "autograms-memory") {
    throw refuse("it is not a saved conversation (no \"format\": \"autograms-memory\")");
  }
  if (memory.graph?.agent !== agentName) throw refuse(`it is a conversation with the agent '${String(memory.graph?.agent)}', not '${agentName}'`);
  if (memory.done === true) throw refuse("that conversation has ended (it reached 'quit'); delete the file or name another to start a new one");
  return value as Memory;
}

/** Writes a temporary file beside the memory file and renames it over: a crash never leaves half a file. */
export function writeMemoryFile(path: string, memory: Memory): void {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(temporary, JSON.stringify(memory) + "\n");
    renameSync(temporary, path);
  } catch (err) {
    rmSync(temporary, { force: true });
    throw new CliError(`cannot save the conversation to '${path}': ${fileProblem(err, "write")}`);
  }
}

/** What the agent said last, to show again when a conversation resumes. */
export function lastReply(memory: Memory): string | undefined {
  for (let i = memory.stack.length - 1; i >= 0; i--) {
    const turns = memory.stack[i]!.turns.filter((t) => t.kind === "chat");
    if (turns.length) return turns[turns.length - 1]!.agent;
  }
  return undefined;
}
