/**
 * An SSE response of `sseResponse` written straight to Node's response, as `listen` serves it:
 * the chunks go to the connection as they are ready, without a web stream between (whose reads
 * and encodings cost more than the writes), and the headers go out with the first chunk in one
 * write (a separate write of the headers, as a streamed body otherwise has, was a third of a short
 * turn's writes). Same chunks, pace, keep-alives and end as the web stream (http/sse.ts).
 */
import type { OutgoingHttpHeaders, ServerResponse } from "node:http";
import { KEEP_ALIVE_TEXT, streamFailed, type SseChunks } from "./sse.js";

/** Bytes held for a slow client before its stream stops taking frames: then the frames wait in their source (a run's events), not here. */
export const HIGH_WATER_BYTES = 64 * 1024;

/** How long the headers wait for the first frame to go out with it. */
const HEADERS_ALONE_MS = 25;

export function writeSse(chunks: SseChunks, res: ServerResponse, status: number, headers: OutgoingHttpHeaders): void {
  let ended = false;
  /** Something is written: the headers went with it. */
  let written = false;
  const end = () => {
    ended = true;
    clearInterval(timer);
    clearTimeout(headersAlone);
  };
  res.writeHead(status, headers);
  // A stream whose first frame is late (a run waiting for its thread, a resumed run waiting for
  // its model) still answers: its headers go out alone. Not at the event loop's next turn: a
  // message's first frame comes a few turns later (the thread is taken in a transaction first),
  // and a write of its own for the headers was a fifth of such a message's writes' cost.
  const headersAlone = setTimeout(() => {
    // (`headersSent` is already true: writeHead has made them.)
    if (!ended && !written) res.flushHeaders();
  }, HEADERS_ALONE_MS);
  // A quiet stream with room gets a keep-alive, as the web stream does.
  const timer = setInterval(() => {
    if (ended || res.writableLength >= HIGH_WATER_BYTES) return;
    written = true;
    res.write(KEEP_ALIVE_TEXT);
  }, chunks.keepAliveMs);
  res.once("close", () => {
    if (ended) return;
    end();
    // The client went away: the source stops at its next wait.
    chunks.cancel();
  });
  void (async () => {
    try {
      for (;;) {
        const { text, done } = await chunks.next();
        if (ended) return;
        if (done) {
          end();
          res.end(text);
          return;
        }
        written = true;
        if (!res.write(text) && res.writableLength >= HIGH_WATER_BYTES) await drained(res);
      }
    } catch (err) {
      if (ended) return;
      streamFailed(err);
      end();
      res.end();
    }
  })();
}

/** Resolves when `res` has written what it holds, or is closed. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done).off("close", done);
      resolve();
    };
    res.on("drain", done).on("close", done);
  });
}
