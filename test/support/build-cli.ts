// Vitest global setup: build the packages and bundle the CLI once per test run, so tests that run
// `node cli/bin/autograms.js` exercise the real command without each building it. A failed build
// does not stop the other tests: it is handed to the CLI tests, which fail with its message.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";

const root = fileURLToPath(new URL("../..", import.meta.url));

declare module "vitest" {
  export interface ProvidedContext {
    /** Why the CLI could not be built, or null when `cli/bin/autograms.js` is ready to run. */
    cliBuildError: string | null;
  }
}

function run(command: string, args: string[]): void {
  execFileSync(command, args, { cwd: root, stdio: "pipe", encoding: "utf8" });
}

export default function setup(project: TestProject): void {
  try {
    run(process.execPath, [fileURLToPath(new URL("../../node_modules/typescript/bin/tsc", import.meta.url)), "-b", "runtime", "compiler", "store", "cli"]);
    run(process.execPath, ["cli/scripts/bundle.mjs"]);
    project.provide("cliBuildError", null);
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    const output = `${e.stdout ?? ""}${e.stderr ?? ""}`.trim() || e.message;
    project.provide("cliBuildError", `building the CLI failed:\n${output}`);
  }
}
