/**
 * A turn pool's turns played in the server's own thread until they prove CPU-heavy: most turns
 * wait for a model, and sending each to a worker thread, and its steps, text and result back,
 * cost the process 1.4x to 2.3x the CPU per message of playing it here (bench/serve.mjs, the
 * pool's price). Only for an agent that runs no code of its own beyond its graph and its model
 * (`WorkerOptions.inline`: no tool, action or hook modules, which could exit or block the
 * thread): its steps are budgeted and yield the event loop every SLICE_MS, so a loop cannot freeze
 * the server. A turn that has taken HEAVY_STEPS or computed for HEAVY_MS sends its thread's turns to the
 * workers from then on (for as long as a thread stays warm there), and while it runs every new
 * turn goes there too: loops started together cannot pile up in this thread. The pool starts its
 * workers only then: an agent whose turns all wait for its model pays neither their memory nor
 * their start.
 *
 * A looping turn played here leaves what its trace grew through (about twice its size in
 * buffers) to this thread's garbage collector, as a worker does (protocol.ts, `failedTurn`): once per thread,
 * its next turns being the workers'.
 */
import type { Agent } from "@autograms/runtime";
import type { PlayedResult } from "./protocol.js";
import { InProcessPlayer, type PlayRequest } from "./turn-player.js";
import { SLICE_MS, TurnBudgetError, type TurnBudgets } from "./turn-budget.js";

/**
 * A turn that took this many steps (a loop), or computed this long without waiting, proves
 * CPU-heavy. The time is wall time (Node 20 has no clock of a thread's CPU): on a loaded machine a
 * light turn's few milliseconds stretch, so the bound is far above them; a loop is told by its steps.
 */
export const HEAVY_STEPS = 1000;
export const HEAVY_MS = 25 * SLICE_MS;

export class InlineTurns {
  /** The threads whose turns go to the workers, until when. */
  private readonly heavy = new Map<string, number>();
  /** Turns playing here that proved CPU-heavy: while there are any, new turns go to the workers. */
  private computing = 0;
  private readonly player: InProcessPlayer;

  /** `onHeavy`: told each time a turn here proves CPU-heavy (the workers are wanted from now on). */
  constructor(
    agent: Agent,
    budgets: TurnBudgets,
    private readonly heavyForMs: number,
    private readonly onHeavy: () => void,
  ) {
    this.player = new InProcessPlayer(agent, budgets);
  }

  /** Whether this turn is played here: not while a turn here computes, nor one of a heavy thread, nor one that names a build of the workers. */
  takes(request: PlayRequest): boolean {
    if (request.build !== undefined || this.computing > 0) return false;
    const until = this.heavy.get(request.threadId);
    if (until === undefined) return true;
    if (until > Date.now()) return false;
    this.heavy.delete(request.threadId);
    return true;
  }

  async play(request: PlayRequest): Promise<PlayedResult> {
    const { threadId } = request;
    let heavy = false;
    const proved = () => {
      heavy = true;
      this.computing++;
      this.moved(threadId);
      this.onHeavy();
    };
    // The agent made in this thread plays it (a request's own agent is the server's view of the workers').
    const { agent: _, ...here } = request;
    try {
      const work = (ms: number, steps: number) => !heavy && (ms >= HEAVY_MS || steps >= HEAVY_STEPS) && proved();
      return await this.player.play(here, { computing: work, spent: work });
    } catch (err) {
      if (!heavy && err instanceof TurnBudgetError) proved();
      throw err;
    } finally {
      if (heavy) this.computing--;
    }
  }

  private moved(threadId: string): void {
    const now = Date.now();
    // A Map keeps insertion order: the oldest go first once their time is over.
    this.heavy.delete(threadId);
    this.heavy.set(threadId, now + this.heavyForMs);
    for (const [id, until] of this.heavy) {
      if (until > now) break;
      this.heavy.delete(id);
    }
  }
}
