/**
 * A function of the agent called under a turn's budgets, as `serve` plays a turn in its own thread
 * (server/src/workers/play-turn.ts): a call that computes long lets the event loop turn between its
 * steps, so the server goes on answering other clients, and one over its time or memory budget is
 * stopped with a TurnBudgetError.
 */
import type { Agent, JsonValue, TraceEvent } from "@autograms/runtime";
import { TurnMeter, type TurnBudgetError, type TurnBudgets } from "@autograms/server";

export async function boundedCall(
  agent: Agent,
  name: string,
  args: JsonValue[],
  budgets: TurnBudgets,
  signal: AbortSignal,
): Promise<JsonValue> {
  const over = new AbortController();
  const meter = new TurnMeter(budgets, (err: TurnBudgetError) => over.abort(err));
  // A step's size is what it wrote: a loop that grows a value grows its steps.
  const trace = (e: TraceEvent) => meter.step(JSON.stringify(e).length);
  const pause = () => {
    if (!meter.sliceEnded) return;
    return new Promise<void>((r) => setImmediate(r)).then(() => meter.resumed());
  };
  try {
    return await agent.call(name, args, { trace, pause, signal: AbortSignal.any([signal, over.signal]) });
  } catch (err) {
    throw meter.exceeded ?? (signal.aborted ? signal.reason : err);
  } finally {
    meter.close();
  }
}
