/**
 * A server-sent events response fed by an async generator of frames, read as fast as the client
 * reads and no faster. The generator is given a signal that aborts when the client goes away, so
 * it stops reading the run (the run itself goes on); a comment line every `keepAliveMs` keeps
 * proxies from closing a quiet stream.
 *
 * The response's body is a web stream, for any runtime that takes the app's `fetch`; served by
 * `listen` on Node, the same chunks are written straight to the connection instead
 * (http/sse-node.ts), which saves the web stream's reads and lets the headers go out with the
 * first frames in one write.
 */
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

export const KEEP_ALIVE_TEXT = ": keep-alive\n\n";
/** A chunk of frames ready together ends past this many characters (what a slow client's writer holds stays near its bound). */
const CHUNK_CHARS = 8 * 1024;
/** A chunk's wait for its next frame ended with the event loop's turn. */
const TURNED = Symbol("turned");
/** Milliseconds a stream may write without letting the other requests in. */
const SLICE_MS = 5;

/** A stream's frames as chunks of text, for whichever writer sends them (web stream or Node). */
export interface SseChunks {
  /** The next chunk: the next frame, waited for, and the frames ready with it. */
  next(): Promise<{ text: string; done: boolean }>;
  /** The client is gone: the source stops at its next wait. */
  cancel(): void;
  readonly keepAliveMs: number;
}

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

/** The chunks behind a response's body made here, for a writer that sends them without reading the body. */
const chunksOfBody = new WeakMap<object, SseChunks>();

/** The chunks of an SSE response made by `sseResponse`, unread so far; else undefined. */
export function sseChunksOf(body: ReadableStream | null): SseChunks | undefined {
  if (body === null || body.locked) return undefined;
  return chunksOfBody.get(body);
}

export function streamFailed(err: unknown): void {
  // Headers are sent: the stream can only end. The error is the server's to see.
  console.error(`autograms serve: a stream failed: ${err instanceof Error ? err.message : String(err)}`);
}

export function sseResponse(
  frames: (signal: AbortSignal) => AsyncIterable<SseFrame>,
  headers: Record<string, string>,
  keepAliveMs = 15_000,
): Response {
  const chunks = sseChunks(frames, keepAliveMs);
  let timer: NodeJS.Timeout | undefined;
  let ended = false;
  /** A read waits for the source: the stream is quiet and its client ready for more. */
  let waiting = false;
  const end = () => {
    ended = true;
    clearInterval(timer);
  };
  // Nothing is read from the source before the client reads (no high-water mark: a stream's
  // first pull would otherwise come before anyone reads, and a body handed to sse-node.ts must
  // not be read from here), so a client slower than its run holds no frames here: they wait in
  // their source (a run's events), and the writer's buffers hold what it has taken.
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // A quiet stream gets a keep-alive while its client waits for the next frame.
        timer ??= setInterval(() => {
          if (!ended && waiting) controller.enqueue(encoder.encode(KEEP_ALIVE_TEXT));
        }, keepAliveMs);
        try {
          waiting = true;
          const { text, done } = await chunks.next();
          waiting = false;
          if (ended) return;
          if (text !== "") controller.enqueue(encoder.encode(text));
          if (done) {
            end();
            controller.close();
          }
        } catch (err) {
          streamFailed(err);
          end();
          controller.close();
        }
      },
      cancel() {
        end();
        // The source stops at its next wait (the signal wakes it); a pull in progress ends it.
        chunks.cancel();
      },
    },
    { highWaterMark: 0 },
  );
  chunksOfBody.set(body, chunks);
  return new Response(body, { status: 200, headers });
}
