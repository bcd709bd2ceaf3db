/** How long a run's event stream may grow with steps that only compute. */
import { traceKinds } from "@autograms/runtime";

/**
 * Steps that only compute (code, transitions, calls and returns) a run sends; past them it counts
 * them instead, in its end's `omittedSteps`, so the stream of a loop stays this long however long
 * the loop runs. Steps that talk (a user message, a reply, a tool call, a custom action, quit) are
 * always sent; a turn's stored trace keeps every step.
 */
export const MAX_COMPUTE_STEPS = 2000;
export const COMPUTE_STEPS: ReadonlySet<string> = traceKinds("computes");

/**
 * A run's compute steps, counted once, where its turns play them (workers/play-turn.ts): a run
 * holds one for all its turns; a turn played in a worker thread is counted there, from what the
 * run has `left`, and its counts are added to the run's (`add`).
 */
export class ComputeSteps {
  /** Compute steps played, sent or not. */
  played = 0;
  /** Those past the bound: counted, not sent. */
  omitted = 0;

  constructor(private readonly bound = MAX_COMPUTE_STEPS) {}

  /** Counts a step of this kind: whether the stream takes it. */
  sends(kind: string): boolean {
    if (!COMPUTE_STEPS.has(kind) || ++this.played <= this.bound) return true;
    this.omitted++;
    return false;
  }

  /** The compute steps the stream still takes. */
  get left(): number {
    return Math.max(0, this.bound - this.played);
  }

  /** The counts of a turn played elsewhere, from what was `left`. */
  add(played: number, omitted: number): void {
    this.played += played;
    this.omitted += omitted;
  }
}
