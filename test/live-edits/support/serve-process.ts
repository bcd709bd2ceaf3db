// A real `autograms serve` process in a test folder, and waits for what it reports on stderr.
import { afterAll } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { bin } from "../../cli/support/run-cli.js";

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill("SIGKILL");
});

export interface ServeProcess {
  url: string;
  stderr: () => string;
}

/** Starts `autograms serve ARGS` in `cwd`; resolves once it listens. */
export function serveProcess(cwd: string, args: string[]): Promise<ServeProcess> {
  const child = spawn(process.execPath, [bin, "serve", ...args], { cwd });
  children.push(child);
  let stdout = "";
  let stderr = "";
  return new Promise((resolve, reject) => {
    child.stdout!.setEncoding("utf8").on("data", (c: string) => {
      stdout += c;
      const m = /^listening on (http:\/\/\S+)\n/m.exec(stdout);
      if (m) resolve({ url: m[1]!, stderr: () => stderr });
    });
    child.stderr!.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.on("close", (code) => reject(new Error(`serve exited ${code}:\n${stdout}\n${stderr}`)));
  });
}

/**
 * `autograms serve DIR/agent.ts --watch --workers N` on the offline model and a store in DIR, on
 * any free port.
 */
export function serveWatching(dir: string, workers: string, more: string[] = []): Promise<ServeProcess> {
  return serveProcess(dir, [
    join(dir, "agent.ts"),
    "--watch",
    "--workers",
    workers,
    "--offline",
    "--port",
    "0",
    "--store",
    `sqlite:${join(dir, "threads.db")}`,
    ...more,
  ]);
}

/**
 * Resolves once `check()` holds (polled), else fails after 45 s saying `what`: a build under
 * --watch (its type check, its workers) takes seconds on a machine busy with the other slow tests.
 */
export async function until(check: () => boolean | Promise<boolean>, what: () => string): Promise<void> {
  const deadline = Date.now() + 45_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`waited 45 s for ${what()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Resolves once stderr has `count` matches of `pattern` (the server's reports of builds). */
export function told(stderr: () => string, pattern: RegExp, count: number): Promise<void> {
  return until(
    () => (stderr().match(new RegExp(pattern, "g")) ?? []).length >= count,
    () => `${count}x ${pattern} on stderr:\n${stderr()}`,
  );
}
