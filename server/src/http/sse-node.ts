/**
 * An SSE response of `sseResponse` written straight to Node's response, as `listen` serves it:
 * the chunks go to the connection as they are ready, without a web stream between (whose reads
 * and encodings cost more than the writes). Its first write waits a moment (FIRST_WRITE_MS) and
 * carries the headers and every frame made meanwhile: a short turn's whole answer is then one
 * write, where the headers, the run's first frames and its end were written apart (each write is
 * a system call, which costs the server more than the frames' text). Same chunks after it, pace,
 * keep-alives and end as the web stream (http/sse.ts).
 */
import type { OutgoingHttpHeader, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { KEEP_ALIVE_TEXT, streamFailed, type SseChunks } from "./sse.js";

/** Bytes held for a slow client before its stream stops taking frames: then the frames wait in their source (a run's events), not here. */
export const HIGH_WATER_BYTES = 64 * 1024;

/**
 * How long the first write waits for more frames, the headers with it: a run's first frames (its
 * start, its first steps) come before anything a reader sees (the model's first words), and a
 * stream whose first frame is late still answers within it (its headers alone).
 */
const FIRST_WRITE_MS = 25;
/** The first write goes out before its time once it holds this many characters. */
const FIRST_WRITE_CHARS = 16 * 1024;

export function writeSse(
  chunks: SseChunks,
  res: ServerResponse,
  status: number,
  headers: OutgoingHttpHeaders | OutgoingHttpHeader[],
  firstWriteMs = FIRST_WRITE_MS,
): void {
  // A client gone before its answer (its 'close' is past): nothing to write, the source stops.
  if (res.destroyed) return chunks.cancel();
  let ended = false;
  /** The frames waiting for the first write; null once it is made. */
  let held: string | null = "";
  const end = () => {
    ended = true;
    clearInterval(timer);
    clearTimeout(firstWrite);
  };
  res.writeHead(status, headers);
  const writeHeld = () => {
    if (held === null) return;
    const text = held;
    held = null;
    clearTimeout(firstWrite);
    // (`headersSent` is already true: writeHead has made them.)
    if (text === "") res.flushHeaders();
    else res.write(text);
  };
  const firstWrite = setTimeout(() => !ended && writeHeld(), firstWriteMs);
  // A quiet stream with room gets a keep-alive, as the web stream does.
  const timer = setInterval(() => {
    if (ended || held !== null || res.writableLength >= HIGH_WATER_BYTES) return;
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
          res.end((held ?? "") + text);
          return;
        }
        if (held !== null) {
          held += text;
          if (held.length >= FIRST_WRITE_CHARS) writeHeld();
          continue;
        }
        if (!res.write(text) && res.writableLength >= HIGH_WATER_BYTES) await drained(res);
      }
    } catch (err) {
      if (ended) return;
      streamFailed(err);
      end();
      res.end(held ?? "");
    }
  })();
}

/** Resolves when `res` has written what it holds, or is closed. */
function drained(res: ServerResponse): Promise<void> {
  if (res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done).off("close", done);
      resolve();
    };
    res.on("drain", done).on("close", done);
  });
}
