// The stdio transport of a server started as a child process. The SDK's own leaves the child's
// children running when it stops, waits up to 4 s for a child that ignores SIGTERM, shows the
// child's stderr (a crash's stack trace before our one line) and says `spawn x ENOENT`. This one
// starts the server as a process group of its own and stops the whole group (SIGTERM, then SIGKILL
// after a short grace), keeps only the last lines of its stderr to quote when it fails, and bounds
// each message.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { McpLimitError, mebibytes } from "./limits.js";

export interface StdioSettings {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  maxMessageBytes: number;
  closeGraceMs: number;
  /** A line checked as one of the protocol's messages. */
  parse: (line: string) => JSONRPCMessage;
  /** A message over the bound: the server is stopped and the calls waiting fail with this. */
  onOverflow: (error: McpLimitError) => void;
}

const GROUPS = process.platform !== "win32";
const STDERR_TAIL = 4096;

// Children still running when the process exits by another way than closing them (an uncaught
// error, process.exit): killed with their groups, so that none outlives the command.
const running = new Set<ChildProcess>();
let exitHook = false;

function signal(child: ChildProcess, sig: NodeJS.Signals): void {
  try {
    if (GROUPS && child.pid !== undefined) process.kill(-child.pid, sig);
    else child.kill(sig);
  } catch {
    // The group is gone already.
  }
}

export class ProcessGroupTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child?: ChildProcess;
  private chunks: Buffer[] = [];
  private size = 0;
  private stderr = "";
  private stderrEnd?: Promise<void>;
  /** How the child ended, once it has: `exited with code 1`, `was killed by SIGKILL`. */
  ended?: string;

  constructor(private readonly settings: StdioSettings) {}

  /** The last line the server wrote on stderr that says something (not a stack frame). */
  lastWords(): string | undefined {
    const lines = this.stderr
      .split(/\r?\n/)
      .map((l) => l.trimEnd())
      .filter((l) => l !== "" && !/^\s+at\s/.test(l) && !/^Node\.js v\d/.test(l) && !/^\s*\^+$/.test(l));
    const last = lines.at(-1);
    return last === undefined ? undefined : last.length > 200 ? `${last.slice(0, 200)}...` : last;
  }

  /** Once what the child wrote on stderr has been read (a grandchild may hold it open: not long). */
  async settled(): Promise<void> {
    if (this.ended === undefined || !this.stderrEnd) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.stderrEnd, new Promise((resolve) => (timer = setTimeout(resolve, 200)))]);
    clearTimeout(timer);
  }

  start(): Promise<void> {
    const { command, args, env, cwd } = this.settings;
    if (cwd !== undefined && !existsSync(cwd)) return Promise.reject(new Error(`its folder ${cwd} does not exist`));
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, {
        env,
        ...(cwd !== undefined && { cwd }),
        stdio: ["pipe", "pipe", "pipe"],
        detached: GROUPS,
        windowsHide: true,
      });
      this.child = child;
      child.on("error", (err: NodeJS.ErrnoException) => {
        if (err.code === "ENOENT" && child.pid === undefined) {
          const where = /[\\/]/.test(command) ? "" : " on PATH";
          reject(new Error(`the command '${command}' was not found${where}`));
        } else if (child.pid === undefined) reject(err);
        else this.onerror?.(err);
      });
      child.on("spawn", () => {
        running.add(child);
        if (!exitHook) {
          exitHook = true;
          process.on("exit", () => {
            for (const c of running) signal(c, "SIGKILL");
          });
        }
        resolve();
      });
      // `exit`, not `close`: a grandchild holding the pipes open must not hide the server's end.
      child.on("exit", (code, sig) => {
        running.delete(child);
        this.ended = sig ? `was killed by ${sig}` : `exited with code ${code}`;
        if (this.child === child) {
          this.child = undefined;
          // What it started dies with it.
          signal(child, "SIGKILL");
          this.onclose?.();
        }
      });
      child.stdin?.on("error", (err) => this.onerror?.(err));
      child.stdout?.on("data", (chunk: Buffer) => this.read(chunk));
      this.stderrEnd = new Promise((resolve) => child.stderr?.once("close", resolve));
      child.stderr?.on("data", (chunk: Buffer) => {
        this.stderr = (this.stderr + chunk.toString("utf8")).slice(-STDERR_TAIL);
      });
    });
  }

  private read(chunk: Buffer): void {
    let start = 0;
    for (let end = chunk.indexOf(10); end >= 0; end = chunk.indexOf(10, start)) {
      const part = chunk.subarray(start, end);
      start = end + 1;
      if (this.size + part.length > this.settings.maxMessageBytes) return this.overflow();
      const line = Buffer.concat([...this.chunks, part])
        .toString("utf8")
        .replace(/\r$/, "");
      this.chunks = [];
      this.size = 0;
      if (line.trim() === "") continue;
      let message: JSONRPCMessage;
      try {
        message = this.settings.parse(line);
      } catch (err) {
        this.onerror?.(err as Error);
        continue;
      }
      this.onmessage?.(message);
    }
    const rest = chunk.subarray(start);
    if (this.size + rest.length > this.settings.maxMessageBytes) return this.overflow();
    if (rest.length) {
      this.chunks.push(rest);
      this.size += rest.length;
    }
  }

  private overflow(): void {
    this.chunks = [];
    this.size = 0;
    this.settings.onOverflow(
      new McpLimitError(
        `it sent a message longer than ${mebibytes(this.settings.maxMessageBytes)} (maxMessageBytes): it was stopped`,
      ),
    );
    void this.close();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || this.child?.exitCode !== null) return reject(new Error("Not connected"));
      if (stdin.write(`${JSON.stringify(message)}\n`)) resolve();
      else stdin.once("drain", resolve);
    });
  }

  /** Stops the server and every process of its group: SIGTERM, then SIGKILL after the grace. */
  async close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child) return;
    const exited = new Promise<boolean>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(true);
      child.once("exit", () => resolve(true));
    });
    child.stdin?.end();
    signal(child, "SIGTERM");
    let timer: NodeJS.Timeout | undefined;
    const inTime = await Promise.race([
      exited,
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), this.settings.closeGraceMs);
      }),
    ]);
    clearTimeout(timer);
    // Whatever of the group is left (a grandchild, a server that ignored SIGTERM) ends now.
    signal(child, "SIGKILL");
    if (!inTime) await exited;
    running.delete(child);
    this.onclose?.();
  }
}
