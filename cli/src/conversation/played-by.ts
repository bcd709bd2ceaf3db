import type { Memory, TraceEvent } from "@autograms/runtime";
import type { TurnPlayer } from "@autograms/server";
import type { PlayedElsewhere } from "@autograms/store";
import type { ChatBuild, TurnListeners } from "./session.js";

/**
 * A turn that `player` plays (a worker thread) from the memory given, its steps and text reported
 * as they come. The steps come whole (every value, a generation's prompt, however many), as the
 * command's own thread would have made them: the trace file and the prints shown are the same
 * with --watch as without.
 */
export function playedBy(
  player: TurnPlayer,
  build: ChatBuild,
  threadId: string,
  text: string | null,
  { trace, onText }: TurnListeners,
): (memory: Memory | null, signal: AbortSignal) => Promise<PlayedElsewhere> {
  return (memory, signal) =>
    player.play({
      agent: build.agent,
      threadId,
      text,
      memory,
      signal,
      wholeSteps: true,
      // Whole steps (wholeSteps) are the trace's events as the agent made them.
      onStep: (step) => trace?.(step.event as unknown as TraceEvent),
      onText: onText ?? (() => {}),
    });
}
