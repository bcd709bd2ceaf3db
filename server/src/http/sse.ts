/**
 * A server-sent events response fed by an async generator of frames, read as fast as the client
 * reads and no faster. The generator is given a signal that aborts when the client goes away, so
 * it stops reading the run (the run itself goes on). The frames are joined into chunks here and
 * written by the one writer (http/sse-writer.ts): to the response's web stream, for any runtime
 * that takes the app's `fetch`, or, served by `listen` on Node, straight to the connection
 * (http/sse-node.ts), which saves the web stream's reads and lets the headers go out with the
 * first frames in one write.
 */
import { writeSse, type SseChunks, type SseSink } from "./sse-writer.js";

export interface SseFrame {
  /** `RUN:N` (http/event-id.ts). */
  id: string;
  event?: string;
  /** Sent as one `data:` line: JSON, or a bare word like `[DONE]` (no line breaks). */
  data: string;
}

const encoder = new TextEncoder();

export function frameText(f: SseFrame): string {
  return `id: ${f.id}\n${f.event === undefined ? "" : `event: ${f.event}\n`}data: ${f.data}\n\n`;
}

/**
 * A source of frames that hands over those it has already made without a promise each
 * (routes/run-stream.ts `framesOfBatches`): a turn's thousands of steps are then joined into chunks
 * without a wait and a race per frame.
 */
export interface ReadyFrames {
  /** The next frame if it is made and no `next()` call waits for it; else undefined. */
  takeReady(): SseFrame | undefined;
}

/** A chunk of frames ready together ends past this many characters (what a slow client's writer holds stays near its bound). */
const CHUNK_CHARS = 8 * 1024;
/** A chunk's wait for its next frame ended with the event loop's turn. */
const TURNED = Symbol("turned");
/** Milliseconds a stream may write without letting the other requests in. */
const SLICE_MS = 5;

function sseChunks(frames: (signal: AbortSignal) => AsyncIterable<SseFrame>, keepAliveMs: number): SseChunks {
  const gone = new AbortController();
  const source = frames(gone.signal)[Symbol.asyncIterator]();
  const ready = "takeReady" in source ? (source as unknown as ReadyFrames) : null;
  let sliceStart = performance.now();
  /** A frame asked for and not yet written: the first of the next chunk. */
  let pending: Promise<IteratorResult<SseFrame>> | null = null;
  /**
   * The next frame, waited for, and every frame after it that is ready before the event loop
   * turns (a run's events pushed together, a replay, a catch-up after Last-Event-ID), as one
   * chunk: one encoding and one write for them, not one per frame. Their order is the source's.
   */
  const framesReady = async (): Promise<{ text: string; done: boolean }> => {
    // The frames' texts joined once at the end: one flat string, where appending each to the
    // last made a rope that Node measured and flattened again (copied) to write it.
    const parts: string[] = [];
    let chars = 0;
    const add = (frame: SseFrame) => {
      const text = frameText(frame);
      parts.push(text);
      chars += text.length;
    };
    const chunk = (done: boolean) => ({ text: parts.join(""), done });
    let turned: Promise<typeof TURNED> | null = null;
    while (chars < CHUNK_CHARS) {
      const made = pending === null ? ready?.takeReady() : undefined;
      if (made) {
        add(made);
        continue;
      }
      const next = pending ?? source.next();
      pending = null;
      if (parts.length === 0) {
        const got = await next;
        if (got.done) return chunk(true);
        add(got.value);
        continue;
      }
      turned ??= new Promise((r) => setImmediate(() => r(TURNED)));
      let got: IteratorResult<SseFrame> | typeof TURNED;
      try {
        got = await Promise.race([next, turned]);
      } catch {
        // The frames before the failure are written first; the next chunk meets it.
        pending = next;
        break;
      }
      if (got === TURNED) {
        // Not ready yet: the next chunk waits for it (a failure then is seen there, not lost).
        pending = next;
        next.catch(() => {});
        break;
      }
      if (got.done) return chunk(true);
      add(got.value);
    }
    return chunk(false);
  };
  return {
    keepAliveMs,
    async next() {
      // A client that reads as fast as a run's events come would keep this in microtasks for
      // the whole run (a frame taken, the next one ready): the other requests get the event loop
      // between slices.
      if (performance.now() - sliceStart > SLICE_MS) {
        await new Promise((r) => setImmediate(r));
        sliceStart = performance.now();
      }
      return framesReady();
    },
    cancel: () => gone.abort(),
  };
}

/** The chunks behind a response's body made here, for `listen` to write to the connection instead. */
const chunksOfBody = new WeakMap<object, SseChunks>();

/** The chunks of an SSE response made by `sseResponse`, unread so far; else undefined. */
export function sseChunksOf(body: ReadableStream | null): SseChunks | undefined {
  if (body === null || body.locked) return undefined;
  return chunksOfBody.get(body);
}

/** `firstWriteMs`: how long the first write waits for more frames (sse-writer.ts). */
export function sseResponse(
  frames: (signal: AbortSignal) => AsyncIterable<SseFrame>,
  headers: Record<string, string>,
  keepAliveMs = 15_000,
  firstWriteMs?: number,
): Response {
  const chunks = sseChunks(frames, keepAliveMs);
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  /** A read waits for text: the client has room. */
  let reading = false;
  let wake: (() => void) | null = null;
  const woken = () => {
    wake?.();
    wake = null;
  };
  const sink: SseSink = {
    hasRoom: () => reading,
    room: () => new Promise<void>((r) => (wake = r)),
    write(text) {
      reading = false;
      controller.enqueue(encoder.encode(text));
    },
    // The headers go with the Response.
    flushHeaders() {},
    end(text) {
      if (text !== "") controller.enqueue(encoder.encode(text));
      controller.close();
    },
  };
  /** Stops the writer; set once the first read starts it. */
  let stop: (() => void) | null = null;
  // Nothing is read from the source before the client reads (no high-water mark: a stream's first
  // pull would otherwise come before anyone reads, and a body whose chunks `listen` writes must
  // not be read from here).
  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      pull() {
        reading = true;
        stop ??= writeSse(chunks, sink, firstWriteMs);
        woken();
      },
      cancel() {
        if (stop) stop();
        else chunks.cancel();
        woken();
      },
    },
    { highWaterMark: 0 },
  );
  chunksOfBody.set(body, chunks);
  return new Response(body, { status: 200, headers });
}
