// The openai client's timeout covers a request until the answer's headers arrive: a server that
// then sends its body a byte at a time would hold the call for ever. Every body read through this
// fetch fails once it has been silent for `idleMs`; a plain (not streamed) body fails too once the
// whole attempt, headers and body, has taken `totalMs`. A stream may go on as long as it keeps
// sending: a turn's deadline bounds it as a whole.

export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** A body or a stream that stopped arriving. */
export class BodyTimeout extends Error {
  override name = "BodyTimeout";
}

export interface BodyLimits {
  idleMs: number;
  totalMs: number;
}

export function guardedFetch(inner: Fetch, limits: BodyLimits): Fetch {
  return async (input, init) => {
    const started = Date.now();
    const response = await inner(input, init);
    if (!response.body) return response;
    const streamed = (response.headers.get("content-type") ?? "").includes("text/event-stream");
    const deadline = streamed ? Infinity : started + limits.totalMs;
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const left = deadline - Date.now();
        const wait = Math.max(0, Math.min(limits.idleMs, left));
        // Which limit the timer stands for is decided now: a timer may fire a little before the
        // clock reaches the deadline, so the clock read after it cannot tell.
        const overall = left <= limits.idleMs;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const silent = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), wait)));
        const next = reader.read();
        const result = await Promise.race([next, silent]).finally(() => clearTimeout(timer));
        if (result === "timeout") {
          next.catch(() => undefined); // cancelling ends it; nobody waits for it any more
          void reader.cancel().catch(() => undefined);
          controller.error(new BodyTimeout(
            overall ? `the answer was still arriving after ${limits.totalMs} ms (timeout)`
              : `the ${streamed ? "stream" : "answer"} stalled: no data for ${limits.idleMs} ms`));
          return;
        }
        if (result.done) controller.close();
        else controller.enqueue(result.value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
