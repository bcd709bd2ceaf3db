// Writes a starter project: an agent, a Vitest test holding a scripted conversation with it, the
// scripts to chat, test and draw it, a tsconfig, a .gitignore and a VS Code debug configuration;
// with a store and the MCP SDK when asked (extras.ts). Used by `npm create autograms` (this
// package's bin) and by `autograms init`.
import { mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { extraSteps, withExtras, type Extras } from "./extras.js";
import { installCommand, TARBALLS } from "./install-command.js";

export { askExtras } from "./ask.js";
export { EXTRA_PACKAGES, type Extras } from "./extras.js";
export { tarballFolder } from "./install-command.js";

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const templateDir = join(packageRoot, "template");

/** This package's version: the starter asks for the autograms packages of the same version. */
export const version: string = (
  JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as { version: string }
).version;

export interface StarterOptions {
  /** The package name written into the starter's package.json (default: the folder's name). */
  name?: string;
  /** What it comes with besides the agent (none by default). */
  extras?: Extras;
  /** The folder of the autograms packages' tarballs, to install them from there (docs/install.md). */
  tarballs?: string;
}

export interface Starter {
  dir: string;
  name: string;
  /** The files written, relative to `dir`, in order. */
  files: string[];
  extras: Extras;
  tarballs?: string;
}

/** A starter cannot be written: the folder is not empty, or the name is not a package name. */
export class StarterError extends Error {
  override name = "StarterError";
}

/** Files a folder may already hold and still count as empty (a fresh `git init`, an editor's). */
const HARMLESS = new Set([".git", ".DS_Store", ".idea", "Thumbs.db"]);

/**
 * Writes the starter into `dir` (created if missing), which must be empty. Template files named
 * `_x` are written as `.x`: npm drops `.gitignore` from published packages, so the template keeps
 * it under another name.
 */
export function createStarter(dir: string, options: StarterOptions = {}): Starter {
  const target = resolve(dir);
  if (existsSync(target)) {
    if (!statSync(target).isDirectory()) throw new StarterError(`${dir} is a file, not a folder`);
    const present = readdirSync(target).filter((f) => !HARMLESS.has(f));
    if (present.length)
      throw new StarterError(
        `${dir} is not empty (${present.slice(0, 3).join(", ")}${present.length > 3 ? ", ..." : ""}): pick a new folder`,
      );
  }
  const name = options.name ?? packageName(basename(target));
  if (!/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/.test(name) || name.length > 214) {
    throw new StarterError(`'${name}' is not a valid npm package name (lower case letters, digits, '-', '.', '_')`);
  }
  const tarballs = options.tarballs === undefined ? undefined : resolve(options.tarballs);
  const missing = tarballs && TARBALLS.find((t) => !existsSync(join(tarballs, `${t}-${version}.tgz`)));
  if (missing) throw new StarterError(`--tarballs: there is no ${missing}-${version}.tgz in ${options.tarballs}`);
  const extras = options.extras ?? {};
  const files: string[] = [];
  for (const file of templateFiles(templateDir)) {
    const out = file
      .split("/")
      .map((part) => (part.startsWith("_") ? `.${part.slice(1)}` : part))
      .join("/");
    let text = readFileSync(join(templateDir, file), "utf8")
      .replaceAll("{{name}}", name)
      .replaceAll("{{version}}", version);
    if (out === "package.json") text = `${JSON.stringify(withExtras(JSON.parse(text), extras), null, 2)}\n`;
    mkdirSync(dirname(join(target, out)), { recursive: true });
    writeFileSync(join(target, out), text);
    files.push(out);
  }
  return { dir: target, name, files, extras, ...(tarballs === undefined ? {} : { tarballs }) };
}

/** A folder name made into a package name: lower case, other characters as '-'. */
function packageName(folder: string): string {
  return (
    folder
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, "-")
      .replace(/^[._-]+/, "") || "autograms-agent"
  );
}

function templateFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split("\\").join("/"))
    .sort();
}

/** What to tell the user once the starter is written. */
export function nextSteps(starter: Starter, cwd = process.cwd()): string {
  const where = relative(cwd, starter.dir) || ".";
  const install = installCommand(version, starter.tarballs);
  return [
    `Wrote an AutoGRAMS starter in ${where}: ${starter.files.join(", ")}`,
    "",
    "Next:",
    ...(where === "." ? [] : [`  cd ${where}`]),
    `  ${install}`,
    ...(starter.tarballs === undefined
      ? [
          "     # until the autograms packages are on the registry, install their tarballs instead:",
          "     # give --tarballs DIR for the command (docs/install.md)",
        ]
      : []),
    "  npm run dev        # talk to agent.ts offline",
    "  npm test           # a scripted conversation against it",
    ...extraSteps(starter.extras),
    "",
  ].join("\n");
}
