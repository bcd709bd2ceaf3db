import type { Memory, TraceEvent } from "@autograms/runtime";
import type { TurnPlayer } from "@autograms/server";
import type { PlayedElsewhere, StoredTraceEvent } from "@autograms/store";
import type { ChatBuild, TurnListeners } from "./session.js";

/**
 * A turn that `player` plays (a worker thread) from the memory given, its steps and text reported
 * as they come. The steps are those a run streams: a value over 4 KiB (a long print among them)
 * stands as `{ "$omitted": ... }`, and generations carry no prompt.
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
      onStep: (step) => trace?.(shownStep(step)),
      onText: onText ?? (() => {}),
    });
}

/** A streamed step as the trace's sinks take it: a print too long to stream says how long it was. */
function shownStep(step: StoredTraceEvent): TraceEvent {
  if (step.kind === "log" && typeof step.text !== "string") {
    const bytes = (step.text as { $omitted?: { bytes?: number } } | null)?.$omitted?.bytes;
    return {
      ...step,
      text: `(${bytes ?? "many"} bytes, too long to show from the worker thread)`,
    } as unknown as TraceEvent;
  }
  return step as unknown as TraceEvent;
}
