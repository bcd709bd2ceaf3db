import Module, { createRequire } from "node:module";
import { isAscii } from "node:buffer";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import vm from "node:vm";

/**
 * Loads a large CommonJS module (typescript.js: 9 MB) with V8's code cache kept in the user's
 * cache directory, so that a cold `autograms compile` does not parse it all again every time.
 * This is what `module.enableCompileCache()` does on Node 22, which is used when present.
 * Returns undefined when no private cache directory can be had; the caller then requires.
 */
export function requireWithCodeCache(id: string, from: string): unknown {
  const modules = Module as unknown as { enableCompileCache?: () => unknown };
  if (typeof modules.enableCompileCache === "function") {
    modules.enableCompileCache();
    return undefined;
  }
  const dir = cacheDir();
  if (!dir) return undefined;
  const path = createRequire(from).resolve(id);
  const { size, mtimeMs } = statSync(path);
  const cacheFile = join(
    dir,
    `${basename(path)}-${size}-${Math.round(mtimeMs)}-${process.version}-${process.arch}.v8cache`,
  );
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(Module.wrap(sourceText(path)), { filename: path, cachedData });
  const module = { exports: {} as unknown };
  script.runInThisContext()(module.exports, createRequire(path), module, path, dirname(path));
  if (cachedData === undefined || script.cachedDataRejected) {
    // At exit the cache also holds the functions this run compiled (the parser's).
    process.once("exit", () => {
      try {
        writeFileSync(`${cacheFile}.${process.pid}`, script.createCachedData(), { mode: 0o600 });
        renameSync(`${cacheFile}.${process.pid}`, cacheFile);
      } catch {
        // A cache that cannot be written only costs the next start its speed.
      }
    });
  }
  return module.exports;
}

/**
 * A source file's text. typescript.js is all ASCII, which Node turns into a string an order of
 * magnitude faster as latin1 (the same characters) than through its UTF-8 decoder.
 */
function sourceText(path: string): string {
  const bytes = readFileSync(path);
  return isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8");
}

/** `$XDG_CACHE_HOME/autograms` (or ~/.cache/autograms), if it is ours and private. */
export function cacheDir(): string | undefined {
  try {
    const dir = join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "autograms");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = statSync(dir);
    // Code from the cache runs as this process: trust only a directory no one else can write.
    if (process.getuid && stat.uid !== process.getuid()) return undefined;
    if ((stat.mode & 0o022) !== 0) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}
