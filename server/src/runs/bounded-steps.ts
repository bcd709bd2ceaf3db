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
