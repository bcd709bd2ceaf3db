// The agent's project: the files `serve` may show its clients (the playground's sources, a failed
// build's diagnostics with their code frames) and `--watch` may print. A file of the agent's that
// is a link leading out of it (to a user's keys, /etc/passwd) is refused without being read, so
// that no line of it reaches a client or a log.
import { existsSync, realpathSync } from "node:fs";
import { dirname, join, parse, relative, resolve, sep } from "node:path";
import { CliError } from "./cli-error.js";

export interface Project {
  /** The project's folder, its real path (links resolved). */
  root: string;
  /** How messages name it. */
  display: string;
}

/** A path as messages name it: relative to the working directory. */
export const displayPath = (path: string) => relative(process.cwd(), path).split("\\").join("/") || ".";

/**
 * The folder of the nearest package.json above the agent file (the file as given, not where a
 * link leads), else the agent's own folder.
 */
export function agentProject(agentFile: string): Project {
  const folder = dirname(resolve(agentFile));
  let root = folder;
  for (let at = folder; ; at = dirname(at)) {
    if (existsSync(join(at, "package.json"))) {
      root = at;
      break;
    }
    if (at === parse(at).root) break;
  }
  return { root: realPath(root), display: displayPath(root) };
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** Whether `path`, its links resolved, is inside the project (a path that does not exist is judged as written). */
export function inProject(project: Project, path: string): boolean {
  const real = realPath(path);
  return real === project.root || real.startsWith(project.root + sep);
}

/** Why a file is refused: it names the file as given, never a line of it. */
export function outsideProject(project: Project, path: string): string {
  return `${displayPath(resolve(path))} is outside the agent's project (${project.display}) once its links are followed: it is not read, so that nothing of it is shown; only the project's files are served`;
}

/** Throws when `path` leads out of the project. */
export function refuseOutside(project: Project, path: string): void {
  if (!inProject(project, path)) throw new CliError(outsideProject(project, path));
}

// The relative modules an agent's source imports (its tools' and actions' modules).
const RELATIVE_IMPORT = /\bfrom\s*["'](\.{1,2}\/[^"']+)["']/g;

/**
 * Refuses, before the type checker or the bundler reads them, the modules the agent imports that
 * lead out of the project: the checker's messages would otherwise name what such a file exports.
 * Each import is looked for as TypeScript resolves it (`./x.js` written for `./x.ts`).
 */
export function refuseImportsOutside(project: Project, agentPath: string, text: string): void {
  for (const [, spec] of text.matchAll(RELATIVE_IMPORT)) {
    const base = resolve(dirname(agentPath), spec!);
    const stem = base.replace(/\.[cm]?js$/, "");
    const found = [base, `${stem}.ts`, `${stem}.mts`, `${stem}.cts`, join(base, "index.ts")].find((p) => existsSync(p));
    if (found) refuseOutside(project, found);
  }
}
