import { createHash } from "node:crypto";
import { readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type TS from "typescript";
import { cacheDir } from "../phases/1-parse/code-cache.js";
import { typescript } from "../phases/1-parse/typescript.js";

/**
 * Agents found free of type errors, kept beside the parser's code cache: a check costs a second
 * or more of CPU (TypeScript reads its standard library and the runtime's declarations), and
 * `chat` or `serve` of an agent nobody edited would pay it on every start. An entry is the agent's
 * text, the options and TypeScript's version (its name), and each other file the program read
 * with its size and modification time: an edit to any of them, or a file gone, checks again.
 * Errors are never kept: a failed check is made again, and its diagnostics printed again.
 */
export function cleanKey(sourceText: string, path: string, options: TS.CompilerOptions, roots: string[]): string {
  const ts = typescript();
  return createHash("sha256")
    .update(JSON.stringify([ts.version, path, sourceText, options, roots]))
    .digest("hex");
}

type Entry = [file: string, size: number, mtimeMs: number][];

export function knownClean(key: string): boolean {
  const dir = cacheDir();
  if (dir === undefined) return false;
  try {
    const entry = JSON.parse(readFileSync(join(dir, `typecheck-${key}.json`), "utf8")) as Entry;
    return entry.every(([file, size, mtimeMs]) => {
      const stat = statSync(file);
      return stat.size === size && stat.mtimeMs === mtimeMs;
    });
  } catch {
    return false;
  }
}

/** Keeps that the check with `key` found nothing, over the files `read` (the agent's aside). */
export function rememberClean(key: string, read: readonly string[]): void {
  const dir = cacheDir();
  if (dir === undefined) return;
  try {
    const entry: Entry = read.map((file) => {
      const stat = statSync(file);
      return [file, stat.size, stat.mtimeMs];
    });
    const file = join(dir, `typecheck-${key}.json`);
    writeFileSync(`${file}.${process.pid}`, JSON.stringify(entry), { mode: 0o600 });
    renameSync(`${file}.${process.pid}`, file);
  } catch {
    // A cache that cannot be written only costs the next check its time.
  }
}
