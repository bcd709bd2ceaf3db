// Runs the built `autograms` command as a user runs it: arguments, piped stdin, and an
// environment without any model settings unless a test gives them. `autograms` starts a process
// for it; `autogramsInProcess` calls the same bundle's main() in the test's own process, with its
// streams captured, which saves the start of a process (most of the time of a short command).
import { afterAll, beforeAll, inject, onTestFinished } from "vitest";
import { spawn } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { join } from "node:path";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { Readable, Writable } from "node:stream";

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

// The commands' user configuration folder (approvals of MCP configurations): one of the test
// file's own, never the user's, removed after its tests.
let configHome: string | undefined;
afterAll(() => {
  if (configHome !== undefined) rmSync(configHome, { recursive: true, force: true });
  configHome = undefined;
});
function testConfigHome(): string {
  configHome ??= mkdtempSync(join(tmpdir(), "autograms-config-"));
  return configHome;
}

/** This process's environment less the model settings, with the test's own. */
export function commandEnv(options: CliOptions = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("OPENAI_")) env[k] = v;
  return { ...env, XDG_CONFIG_HOME: testConfigHome(), ...options.env };
}

/** Runs the command in a process of its own: for what needs one (signals, exit, a terminal, locks held until exit, two at once). */
export function autograms(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const child = spawn(process.execPath, [bin, ...args], { cwd: options.cwd ?? root, env: commandEnv(options) });
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
  return stdout
    .split("\n")
    .filter((l) => l.startsWith("Agent: "))
    .map((l) => l.slice("Agent: ".length));
}

/** Collects what the command writes to a stream that is not a terminal, as a pipe would. */
class Captured extends Writable {
  text = "";
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

type Main = (argv: string[]) => Promise<void>;
let cliMain: Promise<Main> | undefined;
let running = false;

// What a command may listen for on the process, which a process of its own drops when it ends.
type Listener = (...args: unknown[]) => void;
const PROCESS_EVENTS = ["exit", "beforeExit", "SIGINT", "SIGTERM"];
const listeners = (event: string) => process.listeners(event as "exit") as Listener[];

/**
 * Runs the command as `autograms` does, but in this process: the built bundle's main(), with the
 * command's own argv, stdin, stdout, stderr, working folder, environment and exit code for the
 * call, and this process's put back after it. When main() returns, what a process of its own
 * would do as it ends is done: its "exit" listeners run with the exit code, and every listener
 * the command added is removed. A command that calls process.exit fails the test: such a case
 * needs a process of its own.
 */
export async function autogramsInProcess(args: string[], options: CliOptions = {}): Promise<CliResult> {
  if (running)
    throw new Error("autogramsInProcess runs one command at a time: run commands that overlap with autograms()");
  running = true;
  let main: Main;
  try {
    cliMain ??= import(pathToFileURL(join(root, "cli/dist/autograms.mjs")).href).then((m: { main: Main }) => m.main);
    main = await cliMain;
  } catch (err) {
    running = false;
    throw err;
  }
  const stdout = new Captured();
  const stderr = new Captured();
  const streams = { stdin: Readable.from(options.input ? [options.input] : []), stdout, stderr };
  const saved = {
    streams: Object.keys(streams).map((name) => [name, Object.getOwnPropertyDescriptor(process, name)!] as const),
    env: process.env,
    cwd: process.cwd(),
    exitCode: process.exitCode,
    exit: process.exit,
    listeners: PROCESS_EVENTS.map((event) => new Set(listeners(event))),
  };
  for (const [name, stream] of Object.entries(streams))
    Object.defineProperty(process, name, { configurable: true, enumerable: true, get: () => stream });
  process.env = commandEnv(options);
  process.exitCode = undefined;
  process.exit = ((code?: number) => {
    throw new Error(
      `the command called process.exit(${code ?? ""}): run this case with autograms(), in a process of its own`,
    );
  }) as typeof process.exit;
  let code = 1;
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    // What the command would write after it returned is an error here, not lost output.
    stdout.end();
    stderr.end();
    PROCESS_EVENTS.forEach((event, i) => {
      for (const listener of listeners(event)) {
        if (saved.listeners[i]!.has(listener)) continue;
        process.removeListener(event, listener);
        if (event === "exit") listener(code);
      }
    });
    for (const [name, descriptor] of saved.streams) Object.defineProperty(process, name, descriptor);
    process.env = saved.env;
    process.chdir(saved.cwd);
    process.exitCode = saved.exitCode;
    process.exit = saved.exit;
    running = false;
  };
  // A test that ends while its command still runs (a timeout) leaves this process as it found it
  // for the next test file in this worker, which would otherwise run with the command's streams.
  try {
    onTestFinished(restore);
  } catch {
    // Called from a hook, not a test: the hook's own timeout fails the whole file anyway.
  }
  try {
    process.chdir(options.cwd ?? root);
    await main([process.execPath, bin, ...args]);
    code = Number(process.exitCode ?? 0);
    return { code, stdout: stdout.text, stderr: stderr.text };
  } finally {
    restore();
  }
}
