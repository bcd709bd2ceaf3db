import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { Memory } from "@autograms/runtime";
import { CliError } from "./cli-error.js";
import { fileProblem, jsonFault, readRegularFile } from "./files.js";

/** A memory file larger than this is refused unread (a conversation of many thousand turns is far smaller). */
export const MAX_MEMORY_FILE_BYTES = 64 * 1024 * 1024;

/**
 * Holds `<path>.lock` for as long as this process runs: a second process on the same memory file
 * would save over this one's turns (or this one over its), so it is refused, with the holder's
 * pid. A lock whose process is gone (killed) is taken over, and so are the temporaries such a
 * process left beside the file.
 */
export function lockMemoryFile(path: string): void {
  const lock = `${path}.lock`;
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (err) {
    throw new CliError(
      `cannot save the conversation to '${path}': its folder cannot be made: ${fileProblem(err, "write")}`,
    );
  }
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(lock, `${process.pid}\n`, { flag: "wx" });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) {
        throw new CliError(
          `cannot lock '${path}' for this conversation (lock file '${lock}'): ${fileProblem(err, "write")}`,
        );
      }
    }
    const holder = lockHolder(lock);
    if (holder !== null) {
      throw new CliError(
        `'${path}' is in use by another autograms process (${holder === "starting" ? "one that is taking the lock now" : `pid ${holder}`}); two processes on one memory file would lose each other's turns. ` +
          `Wait for it to end, or if no such process runs, delete '${lock}'`,
      );
    }
    rmSync(lock, { force: true });
  }
  process.on("exit", () => {
    if (lockHolder(lock, 0) === process.pid) rmSync(lock, { force: true });
  });
  removeStaleTemporaries(path);
}

/**
 * The pid in a lock file while that process lives; null for a lock that is stale (its process is
 * gone, or it holds no pid and is older than `graceMs`, so its writer died before writing it).
 */
function lockHolder(lock: string, graceMs = 10_000): number | "starting" | null {
  let text: string;
  try {
    text = readFileSync(lock, "utf8");
  } catch {
    return null;
  }
  const pid = /^\d+$/.test(text.trim()) ? Number(text.trim()) : null;
  if (pid === null) {
    try {
      return Date.now() - statSync(lock).mtimeMs < graceMs ? "starting" : null;
    } catch {
      return null;
    }
  }
  return isAlive(pid) ? pid : null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it lives, under another user.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** `<name>.<pid>.tmp` beside the memory file, left by a writer killed between write and rename. */
function removeStaleTemporaries(path: string): void {
  const name = basename(path);
  let entries: string[];
  try {
    entries = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!entry.startsWith(`${name}.`) || !entry.endsWith(".tmp")) continue;
    const pid = entry.slice(name.length + 1, -".tmp".length);
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid || isAlive(Number(pid))) continue;
    rmSync(join(dirname(path), entry), { force: true });
  }
}

/**
 * The saved conversation in `path`, or null when there is none yet. Memory that is not what the
 * runtime writes is refused here with the reason, and so is a file that is not a regular file or
 * is over MAX_MEMORY_FILE_BYTES (read no further than that); the caller has the agent check the
 * rest (checksum, graph) before anything of it is shown. A refused file is never written to.
 */
export function readMemoryFile(path: string, agentName: string): Memory | null {
  const refuse = (why: string) => new CliError(`cannot resume from '${path}': ${why}; the file is left as it is`);
  const text = readRegularFile(path, MAX_MEMORY_FILE_BYTES, refuse, "a memory file");
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw refuse(jsonFault(err));
  }
  const memory = value as Partial<Memory> | null;
  if (typeof memory !== "object" || memory === null || memory.format !== "autograms-memory") {
    throw refuse('it is not a saved conversation (no "format": "autograms-memory")');
  }
  const agent = typeof memory.graph === "object" && memory.graph !== null ? memory.graph.agent : undefined;
  if (agent !== agentName)
    throw refuse(
      `it is a conversation with ${typeof agent === "string" ? `the agent '${agent.slice(0, 100)}'` : "no named agent"}, not '${agentName}'`,
    );
  if (memory.done === true)
    throw refuse("that conversation has ended (it reached 'quit'); delete the file or name another to start a new one");
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
