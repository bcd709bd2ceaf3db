import { lstatSync, readdirSync, statSync, watch, type FSWatcher } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";

/** What an agent and its tool and action modules are written in; a compiled graph or a source map is output, not source. */
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs|json)$/;
const OUTPUT = /\.graph\.json(\.map)?$|\.map$/;
const IGNORED = new Set(["node_modules", ".autograms", ".git", "dist"]);

const isFolder = (path: string) => {
  try {
    // A link to a folder is not followed: it may lead out of the project, or round in a loop.
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
};

/**
 * Calls `changed` once the agent's folder (and the folders under it, where its tool and action
 * modules usually are) has been quiet for `quietMs` after a save of a source file: an editor's
 * save is several writes. Returns a function that stops watching.
 *
 * Each folder is watched by itself, for the names in it, rather than with `recursive: true`: on
 * Linux, Node 20's recursive watch follows each file's inode, so after an atomic save (a temporary
 * file renamed over the original, as editors and `sed -i` save) it watches a file that is gone and
 * never reports the next saves. A folder's watch sees every name written or renamed into it.
 */
export interface WatchOptions {
  /** How long the folder must be quiet after a save before `changed` is called. */
  quietMs?: number;
  /** Told once when the folder is looked at on a timer, the system's watches being used up. */
  onPolling?: (why: string) => void;
  /** node:fs's `watch`; a test gives one that fails as a system out of watches does. */
  watch?: typeof watch;
}

export function watchAgentFolder(agentFile: string, changed: () => void, options: WatchOptions = {}): () => void {
  const {
    quietMs = 150,
    onPolling = (why: string) =>
      process.stderr.write(`(the folder cannot be watched (${why}): it is looked at every ${POLL_MS} ms instead)\n`),
    watch: watchFolderNamed = watch,
  } = options;
  const root = dirname(resolve(agentFile));
  const watchers = new Map<string, FSWatcher>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let polling: NodeJS.Timeout | undefined;
  const saved = () => {
    clearTimeout(timer);
    timer = setTimeout(changed, quietMs);
  };
  const unwatchFolder = (folder: string) => {
    for (const [path, watcher] of watchers)
      if (path === folder || path.startsWith(folder + sep)) {
        watcher.close();
        watchers.delete(path);
      }
  };
  const watchFolder = (folder: string) => {
    if (stopped || watchers.has(folder)) return;
    let watcher: FSWatcher;
    try {
      watcher = watchFolderNamed(folder, (_event, name) => name && seen(folder, name.toString()));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // Gone (or unreadable) before it could be watched: nothing in it to build.
      if (code === "ENOENT" || code === "ENOTDIR" || code === "EACCES") return;
      // The system's watches are used up (inotify's instances or watches: EMFILE, ENOSPC): saves
      // would go unseen, so the folder is looked at on a timer instead.
      poll(String(code ?? err));
      return;
    }
    // A folder removed while watched: its watch ends.
    watcher.on("error", () => unwatchFolder(folder));
    watchers.set(folder, watcher);
    let entries: string[];
    try {
      entries = readdirSync(folder);
    } catch {
      return;
    }
    for (const name of entries) {
      const path = join(folder, name);
      if (!IGNORED.has(name) && isFolder(path)) watchFolder(path);
    }
  };
  const seen = (folder: string, name: string) => {
    if (IGNORED.has(name)) return;
    const path = join(folder, name);
    // A folder made, moved in, removed or replaced: watched again as it is now, and the modules
    // in it may be what the agent imports.
    if (watchers.has(path) || isFolder(path)) {
      unwatchFolder(path);
      watchFolder(path);
      saved();
      return;
    }
    if (SOURCE.test(name) && !OUTPUT.test(name)) saved();
  };
  const poll = (why: string) => {
    if (polling || stopped) return;
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
    onPolling(why);
    let last = snapshot(root);
    polling = setInterval(() => {
      const now = snapshot(root);
      if (now !== last) saved();
      last = now;
    }, POLL_MS);
  };
  watchFolder(root);
  return () => {
    stopped = true;
    clearInterval(polling);
    clearTimeout(timer);
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
  };
}

/** How often a folder that cannot be watched is looked at. */
const POLL_MS = 300;

/** The source files under a folder with their sizes and times, as one text to compare. */
function snapshot(folder: string): string {
  const parts: string[] = [];
  const visit = (dir: string) => {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of entries.sort()) {
      if (IGNORED.has(name)) continue;
      const path = join(dir, name);
      if (isFolder(path)) visit(path);
      else if (SOURCE.test(name) && !OUTPUT.test(name)) {
        try {
          const s = statSync(path);
          parts.push(`${path}\0${s.size}\0${s.mtimeMs}\0${s.ino}`);
        } catch {
          // Removed between the listing and now: the next look sees it gone.
        }
      }
    }
  };
  visit(folder);
  return parts.join("\n");
}
