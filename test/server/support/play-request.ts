import type { PlayRequest } from "@autograms/server";

/** A turn for a player (a turn pool, the server's thread) to play, its steps and text not listened to. */
export const playRequest = (
  threadId: string,
  text: string | null,
  memory: PlayRequest["memory"] = null,
  signal = new AbortController().signal,
): PlayRequest => ({ threadId, text, memory, signal, onStep: () => {}, onText: () => {} });
