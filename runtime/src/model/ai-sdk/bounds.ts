// How long one attempt may take. A provider is given an abort signal and nothing else: the
// attempt's `timeout`, a stream's silence (`idleTimeout`) and the caller's deadline all end the
// attempt through it, and each ends it with its own error so that the message says which.
import { AttemptTimeout, CallAbandoned, StreamStalled } from "./failures.js";

export interface Limits {
  /** Whole attempt, or until a stream has started. */
  timeoutMs: number;
  /** Between two parts of a stream. */
  idleMs: number;
  /** Names the model in messages. */
  name: string;
}

export interface Attempt {
  /** Passed to the provider. */
  signal: AbortSignal;
  /** The stream has started: the attempt's timeout no longer applies, its silence does. */
  started(): void;
  /** The next part of a stream, or an error when it stays silent for too long or the call is abandoned. */
  read<T>(reader: ReadableStreamDefaultReader<T>): ReturnType<ReadableStreamDefaultReader<T>["read"]>;
}

export async function bounded<T>(
  limits: Limits,
  caller: AbortSignal | undefined,
  run: (attempt: Attempt) => Promise<T>,
): Promise<T> {
  if (caller?.aborted) throw new CallAbandoned();
  const controller = new AbortController();
  let ended: Error | undefined;
  const end = (why: Error) => {
    ended ??= why;
    controller.abort(why);
  };
  const onAbort = () => end(new CallAbandoned());
  caller?.addEventListener("abort", onAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined = setTimeout(
    () => end(new AttemptTimeout(`no answer from ${limits.name} within ${limits.timeoutMs} ms`)),
    limits.timeoutMs,
  );
  const attempt: Attempt = {
    signal: controller.signal,
    started: () => {
      clearTimeout(timer);
      timer = undefined;
    },
    read: async (reader) => {
      let idle: ReturnType<typeof setTimeout> | undefined;
      let fail = () => undefined as void;
      const stop = new Promise<never>((_, reject) => {
        fail = () => reject(ended);
        if (controller.signal.aborted) return fail();
        controller.signal.addEventListener("abort", fail, { once: true });
        idle = setTimeout(
          () => end(new StreamStalled(`the stream stalled: no data for ${limits.idleMs} ms`)),
          limits.idleMs,
        );
      });
      const next = reader.read();
      try {
        return await Promise.race([next, stop]);
      } catch (err) {
        next.catch(() => undefined); // cancelling ends it; nobody waits for it any more
        void reader.cancel().catch(() => undefined);
        throw err;
      } finally {
        clearTimeout(idle);
        controller.signal.removeEventListener("abort", fail);
      }
    },
  };
  // A provider that ignores its signal is left behind rather than waited for.
  const stopped = new Promise<never>((_, reject) =>
    controller.signal.addEventListener("abort", () => reject(ended), { once: true }),
  );
  stopped.catch(() => undefined);
  try {
    const result = await Promise.race([run(attempt), stopped]);
    // A provider may end an aborted stream as if it were complete: the answer would be cut short.
    if (ended) throw ended;
    return result;
  } catch (err) {
    throw ended ?? err;
  } finally {
    clearTimeout(timer);
    caller?.removeEventListener("abort", onAbort);
  }
}
