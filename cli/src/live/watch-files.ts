import { watch, type FSWatcher } from "node:fs";
import { dirname, resolve, sep } from "node:path";

/** What an agent and its tool and action modules are written in; a compiled graph or a source map is output, not source. */
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs|json)$/;
const OUTPUT = /\.graph\.json(\.map)?$|\.map$/;
const IGNORED = new Set(["node_modules", ".autograms", ".git", "dist"]);

/**
 * Calls `changed` once the agent's folder (and the folders under it, where its tool and action
 * modules usually are) has been quiet for `quietMs` after a save of a source file: an editor's
 * save is several writes. Returns a function that stops watching.
 */
export function watchAgentFolder(agentFile: string, changed: () => void, quietMs = 150): () => void {
  const folder = dirname(resolve(agentFile));
  let timer: NodeJS.Timeout | undefined;
  const watcher: FSWatcher = watch(folder, { recursive: true }, (_event, name) => {
    const path = name?.toString() ?? "";
    if (!SOURCE.test(path) || OUTPUT.test(path) || path.split(sep).some((part) => IGNORED.has(part))) return;
    clearTimeout(timer);
    timer = setTimeout(changed, quietMs);
  });
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}
