// Vitest global setup: build the packages and bundle the CLI once per test run, so tests that run
// `node cli/bin/autograms.js` exercise the real command without each building it. A failed build
// does not stop the other tests: it is handed to the CLI tests, which fail with its message.
// No test starts before this ends, so the bundle is made again only when what goes into it has
// changed since the last bundle made here (two seconds of every run's start, most runs).
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";

const root = fileURLToPath(new URL("../..", import.meta.url));

declare module "vitest" {
  export interface ProvidedContext {
    /** Why the CLI could not be built, or null when `cli/bin/autograms.js` is ready to run. */
    cliBuildError: string | null;
  }
}

/**
 * What cli/scripts/bundle.mjs reads: the CLI's sources, the packages' build output, the installed
 * dependencies (npm rewrites node_modules/.package-lock.json on every install), and the script.
 */
const BUNDLE_INPUTS = [
  "cli/src",
  "cli/scripts/bundle.mjs",
  "cli/package.json",
  "graph/dist",
  "sandbox/dist",
  "runtime/dist",
  "compiler/dist",
  "store/dist",
  "server/dist",
  "node_modules/.package-lock.json",
];
/** Written after a bundle succeeds, removed before one starts: its time is the last good bundle's. */
const STAMP = join(root, "node_modules/.cache/autograms-tests/cli-bundled");

function run(command: string, args: string[]): void {
  execFileSync(command, args, { cwd: root, stdio: "pipe", encoding: "utf8" });
}

/** The latest modification time of a file or of any file below a folder; 0 when there is none. */
function latestChange(path: string): number {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, latestChange(join(path, name))), stats.mtimeMs);
}

/** What cli/scripts/bundle.mjs writes: the command line, a bundle per action, the sandbox's child, the server's worker, the graph schema. */
function bundleOutputs(): string[] {
  const actions = readdirSync(join(root, "cli/src/actions"))
    .filter((f) => f.endsWith(".ts"))
    .map((f) => `autograms-${f.slice(0, -3)}.mjs`);
  return [
    ...["autograms.mjs", "autograms-sandbox-worker.mjs", "autograms-serve-worker.mjs", ...actions].map((f) =>
      join(root, "cli/dist", f),
    ),
    join(root, "graph/dist/graph.schema.json"),
    join(root, "runtime/dist/graph/graph.schema.json"),
  ];
}

function bundleIsCurrent(): boolean {
  const outputs = bundleOutputs();
  if (outputs.some((output) => latestChange(output) === 0)) return false;
  // Without a stamp (a fresh clone, built by `npm ci`'s `npm run build`, not here), the bundle
  // counts when each of its files in cli/dist is newer than everything that goes into it (the
  // graph schema it also writes is in graph/dist and runtime/dist, two of those inputs).
  const bundled =
    latestChange(STAMP) ||
    Math.min(...outputs.filter((output) => output.startsWith(join(root, "cli/dist"))).map(latestChange));
  return BUNDLE_INPUTS.every((input) => latestChange(join(root, input)) < bundled);
}

export default function setup(project: TestProject): void {
  try {
    // The playground's page script is bundled into a source of the server (unchanged: not rewritten).
    run(process.execPath, ["server/scripts/bundle-playground.mjs"]);
    // The graph's schema compiled ahead of time into a source of the graph package (unchanged: not rewritten).
    run(process.execPath, ["graph/scripts/schema-check.mjs"]);
    run(process.execPath, [
      fileURLToPath(new URL("../../node_modules/typescript/bin/tsc", import.meta.url)),
      "-b",
      "runtime",
      "compiler",
      "store",
      "cli",
    ]);
    if (!bundleIsCurrent()) {
      rmSync(STAMP, { force: true });
      run(process.execPath, ["cli/scripts/bundle.mjs"]);
      mkdirSync(dirname(STAMP), { recursive: true });
      writeFileSync(STAMP, "");
    }
    project.provide("cliBuildError", null);
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    const output = `${e.stdout ?? ""}${e.stderr ?? ""}`.trim() || e.message;
    project.provide("cliBuildError", `building the CLI failed:\n${output}`);
  }
}
