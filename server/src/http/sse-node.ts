/**
 * Node's response as an SSE stream's sink (http/sse-writer.ts), for `listen`: the chunks go to the
 * connection as they are ready, without a web stream between (whose reads and encodings cost more
 * than the writes), the headers with the first of them.
 */
import type { OutgoingHttpHeader, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { writeSse, type SseChunks, type SseSink } from "./sse-writer.js";

/** Bytes held for a slow client before its stream stops taking frames: then the frames wait in their source (a run's events), not here. */
const HIGH_WATER_BYTES = 64 * 1024;

/** Writes an SSE response's chunks (`sseChunksOf`) to `res`, with these headers. */
export function writeSseToNode(
  chunks: SseChunks,
  res: ServerResponse,
  status: number,
  headers: OutgoingHttpHeaders | OutgoingHttpHeader[],
  firstWriteMs?: number,
): void {
  // A client gone before its answer (its 'close' is past): nothing to write, the source stops.
  if (res.destroyed) return chunks.cancel();
  res.once("close", writeSse(chunks, nodeSink(res, status, headers), firstWriteMs));
}

/** The sink, its headers given to Node (sent with the first write). */
function nodeSink(res: ServerResponse, status: number, headers: OutgoingHttpHeaders | OutgoingHttpHeader[]): SseSink {
  res.writeHead(status, headers);
  return {
    hasRoom: () => res.writableLength < HIGH_WATER_BYTES,
    room: () => drained(res),
    write: (text) => void res.write(text),
    // (`headersSent` is already true: writeHead has made them.)
    flushHeaders: () => res.flushHeaders(),
    end: (text) => void res.end(text),
  };
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
