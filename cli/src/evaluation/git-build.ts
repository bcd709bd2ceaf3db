/**
 * `eval --compare git:REV`: the agent as it was at a git revision, written to a temporary folder
 * with the files it imports by relative path (found as esbuild follows them, read with `git show`),
 * so it compiles and loads its tools as it did then. The folders of the working tree that hold
 * `node_modules` lend them to the copy, so its packages resolve as the agent's do here.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, posix, relative, resolve, sep } from "node:path";
import type { Loader, Plugin } from "esbuild";
import { CliError } from "../agent-loading/cli-error.js";

export interface GitBuild {
  /** The agent's file in the temporary folder. */
  file: string;
  /** How experiments name it: `git:REV:PATH (COMMIT)`. */
  label: string;
  dispose(): void;
}

/**
 * What `--compare` names, when it names a revision: `git:REV` (the agent's own file then),
 * `git:REV:PATH`, or `REV:PATH` that is no file here. PATH is relative to the current folder.
 */
export function gitRevisionOf(compare: string, agentFile: string): { rev: string; path: string } | null {
  if (compare.startsWith("git:")) {
    const rest = compare.slice("git:".length);
    const colon = rest.indexOf(":");
    return colon < 0 ? { rev: rest, path: agentFile } : { rev: rest.slice(0, colon), path: rest.slice(colon + 1) };
  }
  const colon = compare.indexOf(":");
  if (colon <= 0 || compare.startsWith("model:") || existsSync(compare)) return null;
  return { rev: compare.slice(0, colon), path: compare.slice(colon + 1) };
}

/** Runs git in `cwd`; its output, or null when it exits non-zero. */
function git(cwd: string, args: string[]): Buffer | null {
  const r = spawnSync("git", args, { cwd, maxBuffer: 256 * 1024 * 1024 });
  if (r.error) {
    const missing = (r.error as NodeJS.ErrnoException).code === "ENOENT";
    throw new CliError(
      missing
        ? "--compare with a git revision needs git, which is not installed here (or not on PATH)"
        : r.error.message,
    );
  }
  return r.status === 0 ? r.stdout : null;
}

const text = (b: Buffer | null) => (b === null ? null : b.toString("utf8").trim());

const LOADERS: Record<string, Loader> = {
  ".ts": "ts",
  ".mts": "ts",
  ".cts": "ts",
  ".tsx": "tsx",
  ".js": "js",
  ".mjs": "js",
  ".cjs": "js",
  ".jsx": "jsx",
  ".json": "json",
};

/** The files a relative import may mean, in the order TypeScript and esbuild try them. */
function candidates(base: string): string[] {
  const swapped = base.replace(/\.(m?)js(x?)$/, ".$1ts$2");
  const exts = [".ts", ".tsx", ".mts", ".js", ".mjs", ".json"];
  return [
    base,
    ...(swapped === base ? [] : [swapped]),
    ...exts.map((e) => base + e),
    ...exts.map((e) => `${base}/index${e}`),
  ];
}

/** The agent as it was at `rev`, in a temporary folder of its own (removed by `dispose`). */
export async function gitBuild(rev: string, path: string): Promise<GitBuild> {
  const cwd = process.cwd();
  const top = text(git(cwd, ["rev-parse", "--show-toplevel"]));
  if (!top) throw new CliError(`--compare ${rev}: the current folder is not in a git repository`);
  const commit = text(git(top, ["rev-parse", "--verify", "--quiet", `${rev}^{commit}`]));
  if (!commit) throw new CliError(`--compare: the git repository at ${top} has no revision '${rev}'`);
  const agentPath = relative(top, resolve(cwd, path)).split(sep).join("/");
  const short = commit.slice(0, 8);
  const tree = new Set(text(git(top, ["ls-tree", "-r", "--name-only", "-z", commit]))!.split("\0"));
  if (agentPath.startsWith("../") || !tree.has(agentPath))
    throw new CliError(`--compare: ${path} is not in revision '${rev}' (${short}) of the git repository at ${top}`);

  const files = new Map<string, Buffer>();
  const show = (file: string) => {
    let contents = files.get(file);
    if (!contents) files.set(file, (contents = git(top, ["show", `${commit}:${file}`]) ?? Buffer.alloc(0)));
    return contents;
  };
  const fromRevision: Plugin = {
    name: "git-revision",
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === "entry-point") return { path: agentPath, namespace: "git" };
        if (!/^\.\.?(\/|$)/.test(args.path)) return { external: true };
        const base = posix.normalize(posix.join(posix.dirname(args.importer), args.path));
        const found = candidates(base).find((c) => tree.has(c));
        // A module missing at the revision is left for loading the agent to report, as it would here.
        return found ? { path: found, namespace: "git" } : { external: true };
      });
      build.onLoad({ filter: /.*/, namespace: "git" }, (args) => ({
        contents: show(args.path),
        loader: LOADERS[posix.extname(args.path)] ?? "text",
      }));
    },
  };
  const { build } = await import("esbuild");
  // Only the files it reaches matter: a build that fails (a syntax error at the revision) has read
  // them as far as it got, and compiling the agent reports the error as it would here.
  await build({
    absWorkingDir: top,
    entryPoints: [agentPath],
    bundle: true,
    write: false,
    platform: "node",
    format: "esm",
    logLevel: "silent",
    plugins: [fromRevision],
  }).catch(() => {});

  const dir = mkdtempSync(join(tmpdir(), "autograms-git-"));
  try {
    const agentDir = posix.dirname(agentPath);
    if (tree.has(posix.join(agentDir, ".mcp.json"))) show(posix.join(agentDir, ".mcp.json"));
    // The package manifests on the way down to the agent, as they were (a module's format follows its package.json).
    const ancestors =
      agentDir === "." ? ["."] : [".", ...agentDir.split("/").map((_, i, a) => a.slice(0, i + 1).join("/"))];
    for (const a of ancestors) if (tree.has(posix.join(a, "package.json"))) show(posix.join(a, "package.json"));
    for (const [file, contents] of files) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), contents);
    }
    for (const a of ancestors) {
      const modules = join(top, a, "node_modules");
      if (!existsSync(modules)) continue;
      mkdirSync(join(dir, a), { recursive: true });
      symlinkSync(modules, join(dir, a, "node_modules"), "junction");
    }
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    file: join(dir, agentPath),
    label: `git:${rev}:${agentPath} (${short})`,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
