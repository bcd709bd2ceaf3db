/**
 * The agents a command is given: files (an agent's .ts, a graph's .json) as they are, and folders
 * for the agents in them: each .ts file with a class that extends Autogram, in the folder or in a
 * folder directly under it (an agent and its modules often have a folder of their own).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { CliError } from "./cli-error.js";

/** An agent's source: a class that extends Autogram (the compiler's entry point). */
export const isAgentSource = (text: string): boolean => /\bextends\s+Autogram\b/.test(text);

const TYPESCRIPT = /(?<!\.d)\.[cm]?ts$/;
/** Folders that hold no agent of the user's. */
const SKIPPED = (name: string) => name === "node_modules" || name.startsWith(".");

/** The agent files given, folders replaced by the agents in them (in name order), each once. */
export function agentFiles(given: readonly string[]): string[] {
  const files: string[] = [];
  for (const path of given) {
    // Anything but a folder is loaded as an agent, which says what is wrong with it.
    if (statSync(path, { throwIfNoEntry: false })?.isDirectory() !== true) {
      files.push(path);
      continue;
    }
    const found = agentsIn(path, 1);
    if (found.length === 0)
      throw new CliError(
        `no agent in the folder '${path}': an agent is a .ts file with a class that extends Autogram, in the folder or in one directly under it`,
        2,
      );
    files.push(...found);
  }
  return [...new Set(files)];
}

function agentsIn(folder: string, depth: number): string[] {
  const found: string[] = [];
  for (const name of readdirSync(folder).sort()) {
    if (SKIPPED(name)) continue;
    const path = join(folder, name);
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats?.isDirectory()) {
      if (depth > 0) found.push(...agentsIn(path, depth - 1));
    } else if (stats?.isFile() && TYPESCRIPT.test(name) && isAgentSource(readFileSync(path, "utf8"))) found.push(path);
  }
  return found;
}
