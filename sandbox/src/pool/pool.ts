import { fork, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { JsonValue } from "@autograms/graph";
import { SandboxError } from "../errors.js";
import type { Evaluation, SandboxOptions } from "../evaluate.js";
import { DEFAULT_LIMITS, type SandboxLimits } from "../limits.js";
import { resolveLimits } from "../resolve-limits.js";
import { hostMessage, type HostFunction } from "../values/context.js";
import type { CallResult, FromChild, ToChild } from "./protocol.js";

/**
 * Defence in depth: evaluations run in child processes, each with a memory cap and a watchdog,
 * so that even a flaw in the evaluator's own limits costs one child, never the host. Tools still
 * run in the host process; the child asks for each call.
 */
export interface SandboxPoolOptions extends SandboxOptions {
  /** Child processes, each running one evaluation at a time (default 2). */
  size?: number;
  /** Memory a child may use, in MiB: its V8 heap cap, and (on Linux) its resident size (default 256). */
  memoryLimitMb?: number;
  /** A child that has not answered by then is killed; time inside tools does not count (default maxTimeMs × 2 + 1000). */
  timeoutMs?: number;
  /** The child's script (default: `worker.js` beside this module, in the built package). */
  workerPath?: string | URL;
}

export interface SandboxPool {
  evaluate(code: string, variables: Readonly<Record<string, JsonValue>>, options?: SandboxOptions): Promise<Evaluation>;
  /** Stops every child; evaluations not finished are rejected. */
  close(): Promise<void>;
}

interface Job {
  id: number;
  code: string;
  variables: Readonly<Record<string, JsonValue>>;
  limits: Partial<SandboxLimits> & { now?: number };
  functions: Record<string, HostFunction>;
  timeoutMs: number;
  resolve(evaluation: Evaluation): void;
  reject(error: Error): void;
}

interface Worker {
  child: ChildProcess;
  job: Job | null;
  /** Watchdog: time left for the current job, and the timer counting it down. */
  remaining: number;
  timer: NodeJS.Timeout | null;
  since: number;
  memoryPoll: NodeJS.Timeout | null;
  killedFor: "timeout" | "memory" | null;
  /** The child has started; until then its job's clock does not run. */
  ready: boolean;
}

const PAGE_SIZE = 4096;
const MEMORY_POLL_MS = 20;

export function createSandboxPool(options: SandboxPoolOptions = {}): SandboxPool {
  const { size = 2, memoryLimitMb = 256, workerPath, functions: poolFunctions = {}, ...poolLimits } = options;
  const workerFile =
    workerPath === undefined
      ? fileURLToPath(new URL("./worker.js", import.meta.url))
      : workerPath instanceof URL
        ? fileURLToPath(workerPath)
        : workerPath;
  const workers: Worker[] = [];
  const queue: Job[] = [];
  let nextId = 0;
  let closed = false;

  function spawn(): Worker {
    const child = fork(workerFile, [], {
      execArgv: [`--max-old-space-size=${memoryLimitMb}`],
      serialization: "advanced",
      stdio: ["ignore", "ignore", "ignore", "ipc"],
    });
    const worker: Worker = {
      child,
      job: null,
      remaining: 0,
      timer: null,
      since: 0,
      memoryPoll: null,
      killedFor: null,
      ready: false,
    };
    child.on("message", (message: FromChild) => onMessage(worker, message));
    child.on("exit", (code, signal) => onExit(worker, code, signal));
    child.on("error", () => onExit(worker, null, null));
    idle(worker);
    workers.push(worker);
    return worker;
  }

  /** An idle child does not keep the host process alive. */
  function idle(worker: Worker): void {
    worker.child.unref();
    worker.child.channel?.unref();
  }

  function busy(worker: Worker): void {
    worker.child.ref();
    worker.child.channel?.ref();
  }

  function startClock(worker: Worker): void {
    worker.since = Date.now();
    worker.timer = setTimeout(() => kill(worker, "timeout"), worker.remaining);
  }

  function stopClock(worker: Worker): void {
    if (worker.timer !== null) clearTimeout(worker.timer);
    worker.timer = null;
    worker.remaining -= Date.now() - worker.since;
  }

  function kill(worker: Worker, reason: "timeout" | "memory"): void {
    worker.killedFor = reason;
    worker.child.kill("SIGKILL");
  }

  /** Resident size from /proc where there is one; elsewhere the V8 heap cap alone applies. */
  function watchMemory(worker: Worker): void {
    const pid = worker.child.pid;
    if (process.platform !== "linux" || pid === undefined) return;
    worker.memoryPoll = setInterval(() => {
      try {
        const resident = Number(readFileSync(`/proc/${pid}/statm`, "utf8").split(" ")[1]) * PAGE_SIZE;
        if (resident > memoryLimitMb * 1024 * 1024) kill(worker, "memory");
      } catch {
        // The child is gone: its exit handler reports it.
      }
    }, MEMORY_POLL_MS);
  }

  function finish(worker: Worker): Job | null {
    const job = worker.job;
    if (worker.timer !== null) clearTimeout(worker.timer);
    if (worker.memoryPoll !== null) clearInterval(worker.memoryPoll);
    worker.timer = null;
    worker.memoryPoll = null;
    worker.job = null;
    idle(worker);
    return job;
  }

  function onMessage(worker: Worker, message: FromChild): void {
    if (message.type === "ready") {
      worker.ready = true;
      if (worker.job !== null && worker.timer === null) startClock(worker);
      return;
    }
    const job = worker.job;
    if (job === null || message.id !== job.id) return;
    switch (message.type) {
      case "call":
        stopClock(worker);
        void callTool(job, message.name, message.args).then((result) => {
          if (worker.job !== job) return;
          startClock(worker);
          const reply: CallResult = { type: "result", id: job.id, call: message.call, ...result };
          worker.child.send(reply);
        });
        return;
      case "done":
        finish(worker);
        job.resolve(evaluationOf(message));
        break;
      case "failed": {
        finish(worker);
        const { kind, message: text, logs, ...details } = message.error;
        const error = new SandboxError(kind, text, details);
        if (logs !== undefined) error.logs = logs;
        job.reject(error);
        break;
      }
    }
    dispatch();
  }

  function onExit(worker: Worker, code: number | null, signal: NodeJS.Signals | null): void {
    const index = workers.indexOf(worker);
    if (index < 0) return;
    workers.splice(index, 1);
    const job = finish(worker);
    if (job !== null) job.reject(exitError(worker, job, code, signal));
    dispatch();
  }

  function exitError(worker: Worker, job: Job, code: number | null, signal: NodeJS.Signals | null): SandboxError {
    if (worker.killedFor === "timeout") {
      return new SandboxError(
        "limit",
        `evaluation did not finish within ${job.timeoutMs} ms and its process was stopped (maxTimeMs)`,
        { limit: "maxTimeMs" },
      );
    }
    // V8 aborts a process whose heap is full (SIGABRT, or SIGTRAP when it fails inside the
    // engine itself); the resident-size watchdog kills it.
    if (worker.killedFor === "memory" || signal === "SIGABRT" || signal === "SIGTRAP" || code === 134 || code === 133) {
      return new SandboxError(
        "limit",
        `evaluation exceeded the ${memoryLimitMb} MiB memory of its process (maxAllocation)`,
        { limit: "maxAllocation" },
      );
    }
    if (closed) return new SandboxError("host", "the sandbox pool was closed");
    return new SandboxError("host", `the sandbox process stopped unexpectedly (${signal ?? `exit code ${code}`})`);
  }

  async function callTool(
    job: Job,
    name: string,
    args: JsonValue[],
  ): Promise<{ ok: true; value: unknown } | { ok: false; message: string }> {
    const tool = job.functions[name];
    try {
      if (typeof tool !== "function") throw new Error(`no tool named '${name}'`);
      const value = await tool(...args);
      // Structured clone would throw on functions and drop prototypes: fail here with a message instead.
      structuredClone(value);
      return { ok: true, value };
    } catch (error) {
      return { ok: false, message: hostMessage(error) };
    }
  }

  function dispatch(): void {
    while (!closed && queue.length > 0) {
      const worker =
        workers.find((w) => w.job === null && w.child.connected) ?? (workers.length < size ? spawn() : undefined);
      if (worker === undefined) return;
      const job = queue.shift()!;
      worker.job = job;
      worker.killedFor = null;
      worker.remaining = job.timeoutMs;
      busy(worker);
      if (worker.ready) startClock(worker);
      watchMemory(worker);
      const request: ToChild = {
        type: "evaluate",
        id: job.id,
        code: job.code,
        variables: job.variables,
        limits: job.limits,
        functions: Object.keys(job.functions),
      };
      try {
        worker.child.send(request);
      } catch {
        finish(worker);
        job.reject(new SandboxError("type", "the code and variables must be plain data to reach the sandbox process"));
      }
    }
  }

  return {
    evaluate(code, variables, callOptions = {}) {
      const { functions = {}, ...callLimits } = callOptions;
      const limits = { ...poolLimits, ...callLimits };
      try {
        resolveLimits(limits);
      } catch (error) {
        return Promise.reject(error);
      }
      if (closed) return Promise.reject(new SandboxError("host", "the sandbox pool was closed"));
      const maxTimeMs = limits.maxTimeMs ?? DEFAULT_LIMITS.maxTimeMs;
      return new Promise<Evaluation>((resolve, reject) => {
        queue.push({
          id: nextId++,
          code,
          variables,
          limits,
          functions: { ...poolFunctions, ...functions },
          timeoutMs: options.timeoutMs ?? maxTimeMs * 2 + 1_000,
          resolve,
          reject,
        });
        dispatch();
      });
    },

    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new SandboxError("host", "the sandbox pool was closed"));
      const exits = workers.map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (worker.child.exitCode !== null || worker.child.signalCode !== null) resolve();
            else worker.child.once("exit", () => resolve());
          }),
      );
      for (const worker of [...workers]) worker.child.kill("SIGKILL");
      // Children are unreferenced (idle ones do not keep the host alive), so their exits alone may
      // not keep the event loop running until they are seen: a timer does, while they are awaited.
      const keepAlive = setInterval(() => undefined, 1_000);
      try {
        await Promise.all(exits);
      } finally {
        clearInterval(keepAlive);
      }
    },
  };
}

/** A child's result as `evaluate` gives it: `logs` and `time` only when there are. */
function evaluationOf(message: Extract<FromChild, { type: "done" }>): Evaluation {
  const evaluation: Evaluation = { value: message.value, variables: message.variables };
  if (message.logs !== undefined) evaluation.logs = message.logs;
  if (message.time !== undefined) evaluation.time = message.time;
  return evaluation;
}
