/**
 * A server-sent events response fed by an async generator of frames, read as fast as the client
 * reads and no faster. The generator is given a signal that aborts when the client goes away, so
 * it stops reading the run (the run itself goes on); a comment line every `keepAliveMs` keeps
 * proxies from closing a quiet stream.
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

/** Bytes a stream holds for a slow client before it stops reading frames: then the frames wait in their source (a run's events), not here. */
const HIGH_WATER_BYTES = 64 * 1024;
/** A chunk of frames ready together ends past this many characters (a slow client's hold stays near HIGH_WATER_BYTES). */
const CHUNK_CHARS = 8 * 1024;
/** A chunk's wait for its next frame ended with the event loop's turn. */
const TURNED = Symbol("turned");
/** Milliseconds a stream may write without letting the other requests in. */
const SLICE_MS = 5;

export function sseResponse(
  frames: (signal: AbortSignal) => AsyncIterable<SseFrame>,
  headers: Record<string, string>,
  keepAliveMs = 15_000,
): Response {
  const gone = new AbortController();
  const source = frames(gone.signal)[Symbol.asyncIterator]();
  let timer: NodeJS.Timeout | undefined;
  let ended = false;
  let sliceStart = performance.now();
  const end = () => {
    ended = true;
    clearInterval(timer);
  };
  /** A frame asked for and not yet written: the first of the next chunk. */
  let pending: Promise<IteratorResult<SseFrame>> | null = null;
  /**
   * The next frame, waited for, and every frame after it that is ready before the event loop
   * turns (a run's events pushed together, a replay, a catch-up after Last-Event-ID), as one
   * chunk: one encoding and one write for them, not one per frame. Their order is the source's.
   */
  const framesReady = async (): Promise<{ text: string; done: boolean }> => {
    let text = "";
    let turned: Promise<typeof TURNED> | null = null;
    while (text.length < CHUNK_CHARS) {
      const next = pending ?? source.next();
      pending = null;
      if (text === "") {
        const got = await next;
        if (got.done) return { text, done: true };
        text += frameText(got.value);
        continue;
      }
      turned ??= new Promise((r) => setImmediate(() => r(TURNED)));
      let got: IteratorResult<SseFrame> | typeof TURNED;
      try {
        got = await Promise.race([next, turned]);
      } catch {
        // The frames before the failure are written first; the next pull meets it.
        pending = next;
        break;
      }
      if (got === TURNED) {
        // Not ready yet: the next pull waits for it (a failure then is seen there, not lost).
        pending = next;
        next.catch(() => {});
        break;
      }
      if (got.done) return { text, done: true };
      text += frameText(got.value);
    }
    return { text, done: false };
  };
  // A frame is read from its source only when the client has taken the ones before (`pull`), so
  // a client slower than its run holds at most HIGH_WATER_BYTES here, whatever the run sends.
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        // A quiet stream still has room: a keep-alive is written only then.
        timer = setInterval(() => {
          if (!ended && (controller.desiredSize ?? 0) > 0) controller.enqueue(encoder.encode(": keep-alive\n\n"));
        }, keepAliveMs);
      },
      async pull(controller) {
        try {
          // A client that reads as fast as a run's events come would keep this in microtasks for
          // the whole run (a frame taken, the next one ready): the other requests get the event loop
          // between slices.
          if (performance.now() - sliceStart > SLICE_MS) {
            await new Promise((r) => setImmediate(r));
            sliceStart = performance.now();
          }
          const { text, done } = await framesReady();
          if (ended) return;
          if (text !== "") controller.enqueue(encoder.encode(text));
          if (done) {
            end();
            controller.close();
          }
        } catch (err) {
          // Headers are sent: the stream can only end. The error is the server's to see.
          console.error(`autograms serve: a stream failed: ${err instanceof Error ? err.message : String(err)}`);
          end();
          controller.close();
        }
      },
      cancel() {
        end();
        // The source stops at its next wait (the signal wakes it); a pull in progress ends it.
        gone.abort();
      },
    },
    { highWaterMark: HIGH_WATER_BYTES, size: (chunk) => chunk.byteLength },
  );
  return new Response(body, { status: 200, headers });
}
