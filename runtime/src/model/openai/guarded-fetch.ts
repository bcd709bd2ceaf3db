// The openai client's timeout covers a request until the answer's headers arrive: a server that
// then sends its body a byte at a time would hold the call for ever. Every body read through this
// fetch fails once it has been silent for `idleMs`; a plain (not streamed) body fails too once the
// whole attempt, headers and body, has taken `totalMs`. A stream may go on as long as it keeps
// sending: a turn's deadline bounds it as a whole. And as curl's low-speed limit, any body fails
// once it has brought fewer than `lowSpeed.bytes` in a `lowSpeed.windowMs` (a byte every 2 s is
// never silent for long, but is no answer either).

export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** A body or a stream that stopped arriving. */
export class BodyTimeout extends Error {
  override name = "BodyTimeout";
}

export interface BodyLimits {
  idleMs: number;
  totalMs: number;
  /** The least a body must bring in each window of `windowMs` (counted from its headers). */
  lowSpeed: LowSpeedLimit;
}

export interface LowSpeedLimit {
  bytes: number;
  windowMs: number;
}

export function guardedFetch(inner: Fetch, limits: BodyLimits): Fetch {
  return async (input, init) => {
    const started = Date.now();
    const response = await inner(input, init);
    if (!response.body) return response;
    const streamed = (response.headers.get("content-type") ?? "").includes("text/event-stream");
    const deadline = streamed ? Infinity : started + limits.totalMs;
    const reader = response.body.getReader();
    const { bytes: minBytes, windowMs } = limits.lowSpeed;
    let windowEnd = Date.now() + windowMs;
    let windowBytes = 0;
    let next: ReturnType<typeof reader.read> | null = null;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        for (;;) {
          const now = Date.now();
          const left = deadline - now;
          const wait = Math.max(0, Math.min(limits.idleMs, left, windowEnd - now));
          // Which limit the timer stands for is decided now: a timer may fire a little before the
          // clock reaches the deadline, so the clock read after it cannot tell.
          const reason =
            left <= Math.min(limits.idleMs, windowEnd - now)
              ? "overall"
              : windowEnd - now < limits.idleMs
                ? "window"
                : "idle";
          let timer: ReturnType<typeof setTimeout> | undefined;
          const silent = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), wait)));
          // A read still pending when a window ended is the one waited for next.
          next ??= reader.read();
          const result = await Promise.race([next, silent]).finally(() => clearTimeout(timer));
          if (result !== "timeout") {
            next = null;
            if (result.done) return controller.close();
            windowBytes += result.value.byteLength;
            controller.enqueue(result.value);
          }
          if (Date.now() >= windowEnd || (result === "timeout" && reason === "window")) {
            if (windowBytes < minBytes)
              return fail(
                `the ${streamed ? "stream" : "answer"} arrived too slowly: ${windowBytes} bytes in ${windowMs} ms, under the ${minBytes} bytes required (low speed limit)`,
              );
            windowEnd = Date.now() + windowMs;
            windowBytes = 0;
          }
          if (result !== "timeout") return;
          if (reason === "overall") return fail(`the answer was still arriving after ${limits.totalMs} ms (timeout)`);
          if (reason === "idle")
            return fail(`the ${streamed ? "stream" : "answer"} stalled: no data for ${limits.idleMs} ms`);
        }

        function fail(message: string): void {
          next?.catch(() => undefined); // cancelling ends it; nobody waits for it any more
          void reader.cancel().catch(() => undefined);
          controller.error(new BodyTimeout(message));
        }
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
