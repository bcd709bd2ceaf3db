/**
 * A server-sent events response fed by an async generator of frames. The generator is given a
 * signal that aborts when the client goes away, so it stops reading the run (the run itself goes
 * on); a comment line every `keepAliveMs` keeps proxies from closing a quiet stream.
 */
export interface SseFrame {
  id: number;
  event?: string;
  /** Sent as one `data:` line: JSON, or a bare word like `[DONE]` (no line breaks). */
  data: string;
}

const encoder = new TextEncoder();

export function frameText(f: SseFrame): string {
  return `id: ${f.id}\n${f.event === undefined ? "" : `event: ${f.event}\n`}data: ${f.data}\n\n`;
}

export function sseResponse(frames: (signal: AbortSignal) => AsyncIterable<SseFrame>, headers: Record<string, string>, keepAliveMs = 15_000): Response {
  const gone = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        if (!gone.signal.aborted) controller.enqueue(encoder.encode(text));
      };
      timer = setInterval(() => send(": keep-alive\n\n"), keepAliveMs);
      try {
        for await (const f of frames(gone.signal)) {
          if (gone.signal.aborted) break;
          send(frameText(f));
        }
      } catch (err) {
        // Headers are sent: the stream can only end. The error is the server's to see.
        console.error(`autograms serve: a stream failed: ${err instanceof Error ? err.message : String(err)}`);
      } finally {
        clearInterval(timer);
        if (!gone.signal.aborted) controller.close();
      }
    },
    cancel() {
      clearInterval(timer);
      gone.abort();
    },
  });
  return new Response(body, { status: 200, headers });
}

/** The number in a `Last-Event-ID` header (undefined when absent); null when it is not a number. */
export function lastEventId(header: string | undefined): number | null | undefined {
  if (header === undefined || header.trim() === "") return undefined;
  return /^\d{1,15}$/.test(header.trim()) ? Number(header.trim()) : null;
}
