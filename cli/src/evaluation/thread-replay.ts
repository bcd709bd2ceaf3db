/**
 * `autograms eval AGENT --threads`: every stored thread of the agent replayed on the current build,
 * turn by turn from the memory before each message, writing nothing to the store; the first turn
 * of each that goes another way than it did (`turnDivergence`). Strict replay answers every model
 * call, tool and hook with the turn's recorded results (the store's `replayRecorded`), so only a
 * change of the agent makes a difference, and compares the replies too.
 */
import { settingsOfTrace, type Agent, type TraceEvent } from "@autograms/runtime";
import { AgentNames, turnDivergence, type Divergence } from "@autograms/runtime/eval";
import { replayRecorded, type Store } from "@autograms/store";

export interface ThreadResult {
  thread: string;
  /** Turns replayed, up to the first that differs. */
  replayed: number;
  divergence: Divergence | null;
}

export async function replayThreads(
  store: Store,
  agent: Agent,
  options: { since?: number; strict?: boolean },
): Promise<ThreadResult[]> {
  const names = new AgentNames(agent.graph);
  const threads = (await store.listThreads({ agent: agent.graph.agent })).filter(
    (t) => t.agent !== null && (options.since === undefined || t.updatedAt >= options.since),
  );
  const results: ThreadResult[] = [];
  for (const thread of threads) {
    let replayed = 0;
    let divergence: Divergence | null = null;
    for (const turn of await store.turns(thread.id)) {
      if (turn.status !== "ok") continue;
      const memory = turn.seq <= 1 ? null : await store.memoryAt(thread.id, turn.seq - 1);
      let now: TraceEvent[] = [];
      let error: string | undefined;
      if (options.strict) {
        const r = await replayRecorded(agent, turn, memory);
        now = r.events;
        if (r.stopped !== null) error = r.stopped;
      } else {
        try {
          // The model settings the turn was played with (chosen for its thread), given again to a
          // model that takes settings (the offline model takes none: it plays the turn as it is).
          const settings = typeof agent.model.withSettings === "function" ? settingsOfTrace(turn.trace) : undefined;
          await agent.reply(turn.user ?? "", memory ?? undefined, {
            trace: (e) => now.push(e),
            ...(settings && { modelSettings: settings }),
          });
        } catch (err) {
          error = err instanceof Error ? err.message : String(err);
        }
      }
      replayed++;
      divergence = turnDivergence(
        {
          seq: turn.seq,
          recorded: turn.trace,
          now,
          ...(error !== undefined && { error }),
          compareReplies: !!options.strict,
        },
        names,
      );
      if (divergence) break;
    }
    results.push({ thread: thread.id, replayed, divergence });
  }
  return results;
}

/** The report: a line per thread, and where each that differs parted. */
export function replayReport(agentName: string, results: readonly ThreadResult[], strict: boolean): string {
  const at = (n: { node: string; at: string | null } | null) =>
    n ? `${n.node} (${n.at ?? "?"})` : "(the end of the turn)";
  const lines = results.map((r) => {
    const d = r.divergence;
    if (!d) return `${r.thread}  ${r.replayed} turns: the same`;
    const head = `${r.thread}  turn #${d.turn} differs (${d.what})`;
    const shared = d.lastShared
      ? `after ${d.lastShared.node} (then ${d.lastShared.recorded ?? "?"}, now ${d.lastShared.now ?? "?"})`
      : "from its first node";
    const parted = d.what === "path" ? `\n    parts ${shared}: recorded ${at(d.recorded)}, now ${at(d.now)}` : "";
    const replied = `\n    replied at: recorded ${at(d.recordedReply)}, now ${at(d.nowReply)}`;
    return `${head}${parted}${replied}${d.detail === undefined ? "" : `\n    ${d.what === "error" ? "error" : "reply"}: ${d.detail}`}`;
  });
  const differ = results.filter((r) => r.divergence).length;
  const how = strict ? "recorded answers, replies compared" : "paths and replying nodes compared";
  return `${lines.join("\n")}${lines.length ? "\n" : ""}${agentName}: ${results.length} thread${results.length === 1 ? "" : "s"} replayed (${how}), ${differ} went another way\n`;
}
