// Runs the built `autograms` command in a child process, as a user runs it: arguments, piped
// stdin, and an environment without any model settings unless a test gives them.
import { afterAll, beforeAll, inject } from "vitest";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";

export const root = fileURLToPath(new URL("../../..", import.meta.url));
export const bin = join(root, "cli/bin/autograms.js");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  /** Written to stdin, which is then closed (end of input). */
  input?: string;
  env?: Record<string, string>;
}

function requireBuiltCli(): void {
  const buildError = inject("cliBuildError");
  if (buildError) throw new Error(buildError);
}

/**
 * For a test file that runs the CLI: fails it early when the CLI could not be built, and gives it
 * a temporary folder, removed afterwards. Returns the folder's path (valid once the tests run).
 */
export function cliTestFolder(prefix: string): () => string {
  let dir: string | undefined;
  beforeAll(() => {
    requireBuiltCli();
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));
  return () => dir!;
}

export function autograms(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("OPENAI_")) env[k] = v;
  const child = spawn(process.execPath, [bin, ...args], { cwd: options.cwd ?? root, env: { ...env, ...options.env } });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdin.on("error", () => {}); // the command may end before reading all its input
  child.stdin.end(options.input ?? "");
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The agent's replies as chat prints them on stdout, one "Agent: ..." line each. */
export function replies(stdout: string): string[] {
  return stdout.split("\n").filter((l) => l.startsWith("Agent: ")).map((l) => l.slice("Agent: ".length));
}
