/**
 * What one turn may spend of the thread it runs on, checked at every step of the turn:
 * - time: the wall time of the turn's synchronous slices (Node 20 has no per-thread CPU clock).
 *   The time between two steps counts unless the event loop turned in between (the turn waited
 *   for its model, a tool, a timer), which a timer ticking while turns run tells;
 * - memory: the bytes of the trace the turn has made (each step carries what it wrote, so a loop
 *   that grows a variable grows it), and, in a worker, the thread's heap near its limit and the
 *   memory it holds outside its heap (buffers, typed arrays: no heap limit counts them), checked
 *   at steps, every 100 ms while the turn waits, and as it ends;
 * - wall time: the whole turn, waits included, checked by a timer (a hook, a tool or a model that
 *   never answers holds the thread's lease, and every later message is refused as busy, until
 *   something ends the turn).
 * A turn over budget is stopped through its signal and fails with a TurnBudgetError; nothing of
 * it is committed.
 */
import { shownValue } from "@autograms/runtime";
import { getHeapStatistics } from "node:v8";

export interface TurnBudgets {
  /** Milliseconds of synchronous work a turn may do (default 10,000). */
  timeMs: number;
  /** MiB of trace a turn may make (default 256). */
  memoryMb: number;
  /** Milliseconds a turn may last from its start to its end, waits included (default 300,000: 5 minutes). */
  wallMs: number;
}

export const DEFAULT_BUDGETS: TurnBudgets = { timeMs: 10_000, memoryMb: 256, wallMs: 300_000 };

const MAX_TIMER_MS = 2 ** 31 - 1;

/** The budgets given, over the defaults; `option` names them in the error a bad one gets. */
export function budgetsOf(given: Partial<TurnBudgets> | undefined, option: string): TurnBudgets {
  const budgets = { ...DEFAULT_BUDGETS, ...given };
  for (const [name, value] of Object.entries(budgets)) {
    if (!(typeof value === "number" && value > 0))
      throw new RangeError(`${option}.${name} takes a number above 0, not ${shownValue(value)}`);
  }
  // A timer set for longer fires at once (Node clamps it to 1 ms).
  if (budgets.wallMs > MAX_TIMER_MS)
    throw new RangeError(`${option}.wallMs takes at most ${MAX_TIMER_MS} ms (24.8 days), not ${budgets.wallMs}`);
  return budgets;
}

export class TurnBudgetError extends Error {
  constructor(
    readonly code: "time_budget" | "memory_budget" | "turn_timeout",
    message: string,
    /** The worker may keep what the turn took (memory held by a module): it is replaced. */
    readonly retire = false,
  ) {
    super(message);
    this.name = "TurnBudgetError";
  }
}

/** How long a turn may run before it lets the other turns of its thread have the event loop. */
export const SLICE_MS = 10;
const TICK_MS = 2;
/** The heap is looked at every this many steps (reading it costs a few microseconds). */
const HEAP_EVERY = 64;
/** How often a worker's memory is looked at while the turn waits (a hook or tool may fill it meanwhile). */
const MEMORY_EVERY_MS = 100;

let ticks = 0;
let metering = 0;
let ticker: NodeJS.Timeout | null = null;

export class TurnMeter {
  private spentMs = 0;
  private bytes = 0;
  private steps = 0;
  private last = performance.now();
  private lastTick = ticks;
  /** When the turn last got the event loop (it started, or resumed after a wait). */
  private sliceStart = this.last;
  private closed = false;
  private readonly wall: NodeJS.Timeout;
  /** In a worker: the timer that looks at its memory while the turn waits. */
  private readonly memoryTimer: NodeJS.Timeout | undefined;
  /** Why the turn was stopped, once it was. */
  exceeded: TurnBudgetError | null = null;

  /** `heapLimitBytes`: the thread's heap limit, when it has one of its own (a worker). */
  constructor(
    private readonly budgets: TurnBudgets,
    private readonly stop: (err: TurnBudgetError) => void,
    private readonly heapLimitBytes?: number,
  ) {
    if (metering++ === 0) {
      ticker = setInterval(() => ticks++, TICK_MS);
      ticker.unref();
    }
    this.wall = setTimeout(() => {
      if (!this.exceeded) this.over("turn_timeout", wallTimeout(budgets.wallMs));
    }, budgets.wallMs);
    this.wall.unref();
    if (heapLimitBytes !== undefined) {
      this.memoryTimer = setInterval(() => this.checkMemory(), MEMORY_EVERY_MS);
      this.memoryTimer.unref();
    }
  }

  /** A step of `bytes` of trace; stops the turn if it is over a budget. */
  step(bytes: number): void {
    this.steps++;
    this.charge();
    this.bytes += bytes;
    if (this.exceeded) return;
    const { timeMs, memoryMb } = this.budgets;
    if (this.spentMs > timeMs) {
      this.over(
        "time_budget",
        `the turn ran ${Math.round(this.spentMs)} ms without waiting for anything, over its time budget of ${timeMs} ms (an endless loop?); nothing was committed`,
      );
    } else if (this.bytes > memoryMb * 1024 * 1024) {
      this.over(
        "memory_budget",
        `the turn's steps wrote ${mib(this.bytes)} MiB, over its memory budget of ${memoryMb} MiB (a loop that grows a variable?); nothing was committed`,
      );
    } else if (this.heapLimitBytes !== undefined && this.steps % HEAP_EVERY === 0) this.checkMemory();
  }

  /** The turn is over: the error it fails with if the worker's memory is over a bound now. */
  finish(): TurnBudgetError | null {
    this.checkMemory();
    return this.exceeded;
  }

  /** In a worker: its heap near its limit; what it holds outside the heap over that limit. */
  private checkMemory(): void {
    const limit = this.heapLimitBytes;
    if (limit === undefined || this.exceeded) return;
    const { used_heap_size: used, external_memory: external } = getHeapStatistics();
    if (used > limit * 0.85) {
      this.over(
        "memory_budget",
        `the worker running the turn is using ${mib(used)} MiB of its ${mib(limit)} MiB heap; the turn was stopped before it ran out; nothing was committed`,
      );
    } else if (external > limit) {
      // Bounded by the worker's heap limit, not the turn's budget: what a worker holds outside its
      // heap is shared by the turns it plays, and grows with a turn's own trace and messages too
      // (an endless loop's steps: about 100 MiB), so growth cannot be laid at one turn's door.
      this.over(
        "memory_budget",
        `the worker running the turn holds ${mib(external)} MiB outside its heap (buffers, typed arrays), more than its heap limit of ${mib(limit)} MiB; the turn was stopped, nothing was committed, and the worker is replaced`,
        true,
      );
    }
  }

  /** Milliseconds of synchronous work the turn has done so far (what the time budget counts). */
  get spent(): number {
    return this.spentMs;
  }

  /** Steps the turn has taken so far. */
  get taken(): number {
    return this.steps;
  }

  /** Whether the turn has run long enough to let the others have the event loop. */
  get sliceEnded(): boolean {
    return performance.now() - this.sliceStart >= SLICE_MS;
  }

  /** The turn yielded to the event loop on its own: the time until it resumes is not its. */
  resumed(): void {
    this.last = this.sliceStart = performance.now();
    this.lastTick = ticks;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.wall);
    clearInterval(this.memoryTimer);
    if (--metering === 0 && ticker) {
      clearInterval(ticker);
      ticker = null;
    }
  }

  private charge(): void {
    const now = performance.now();
    if (ticks === this.lastTick) this.spentMs += now - this.last;
    else this.sliceStart = now;
    this.last = now;
    this.lastTick = ticks;
  }

  private over(code: TurnBudgetError["code"], message: string, retire = false): void {
    this.exceeded = new TurnBudgetError(code, message, retire);
    this.stop(this.exceeded);
  }
}

/** What a turn over its wall-clock bound fails with, wherever that is found (here, or by the pool when a worker does not stop it). */
export const wallTimeout = (wallMs: number) =>
  `the turn did not end within ${wallMs} ms, its wall-clock bound (a hook, a tool or the model that never answers?); it was stopped and nothing was committed`;

const mib = (bytes: number) => Math.round(bytes / 1024 / 1024);
