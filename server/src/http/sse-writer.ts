/**
 * The one writer of an SSE response: a stream's chunks (http/sse.ts) to wherever its client reads
 * them, the response's web stream or, served by `listen`, Node's response (http/sse-node.ts). It
 * takes the next chunk only when the client has room for it, so a client slower than its run holds
 * no frames here: they wait in their source (a run's events). Its first write waits a moment
 * (FIRST_WRITE_MS) and carries every frame made meanwhile: a short turn's whole answer is then one
 * write (on Node, with the headers), where the run's first frames and its end were written apart
 * (each write is a system call, which costs the server more than the frames' text). A quiet stream
 * gets a comment line every `keepAliveMs`, which keeps proxies from closing it.
 */

/** A stream's frames as chunks of text, as http/sse.ts makes them. */
export interface SseChunks {
  /** The next chunk: the next frame, waited for, and the frames ready with it. */
  next(): Promise<{ text: string; done: boolean }>;
  /** The client is gone: the source stops at its next wait. */
  cancel(): void;
  readonly keepAliveMs: number;
}

/** Where the writer's text goes. */
export interface SseSink {
  /** The client can take more now (a keep-alive is sent only then). */
  hasRoom(): boolean;
  /** Resolves once the client has room, or is gone. */
  room(): Promise<void>;
  write(text: string): void;
  /** The headers sent without a frame: the first one is late. */
  flushHeaders(): void;
  end(text: string): void;
}

const KEEP_ALIVE_TEXT = ": keep-alive\n\n";

/**
 * How long the first write waits for more frames: a run's first frames (its start, its first
 * steps) come before anything a reader sees (the model's first words), and a stream whose first
 * frame is late still answers within it (its headers alone).
 */
const FIRST_WRITE_MS = 25;
/** The first write goes out before its time once it holds this many characters. */
const FIRST_WRITE_CHARS = 16 * 1024;

/** Writes `chunks` to `sink`; the function it returns is called when the client has gone. */
export function writeSse(chunks: SseChunks, sink: SseSink, firstWriteMs = FIRST_WRITE_MS): () => void {
  let ended = false;
  /** The frames waiting for the first write; null once it is made. */
  let held: string | null = "";
  const end = () => {
    ended = true;
    clearInterval(timer);
    clearTimeout(firstWrite);
  };
  const writeHeld = () => {
    if (held === null) return;
    const text = held;
    held = null;
    clearTimeout(firstWrite);
    if (text === "") sink.flushHeaders();
    else sink.write(text);
  };
  const firstWrite = setTimeout(() => !ended && writeHeld(), firstWriteMs);
  const timer = setInterval(() => {
    if (!ended && held === null && sink.hasRoom()) sink.write(KEEP_ALIVE_TEXT);
  }, chunks.keepAliveMs);
  void (async () => {
    try {
      for (;;) {
        // Once the client is gone, the source is asked once more: that wakes it to see its signal and stop.
        if (!sink.hasRoom()) await sink.room();
        const { text, done } = await chunks.next();
        if (ended) return;
        if (done) {
          end();
          sink.end((held ?? "") + text);
          return;
        }
        if (held === null) sink.write(text);
        else if ((held += text).length >= FIRST_WRITE_CHARS) writeHeld();
      }
    } catch (err) {
      if (ended) return;
      // Headers are sent: the stream can only end. The error is the server's to see.
      console.error(`autograms serve: a stream failed: ${err instanceof Error ? err.message : String(err)}`);
      end();
      sink.end(held ?? "");
    }
  })();
  return () => {
    if (ended) return;
    end();
    // The source stops at its next wait (the signal wakes it).
    chunks.cancel();
  };
}
