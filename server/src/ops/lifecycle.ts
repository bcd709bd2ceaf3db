/**
 * Where a server process stands between starting and exiting. Once it drains (SIGTERM: a load
 * balancer is taking it out), it takes no new turn (503 `shutting_down`, so the client sends the
 * message to another process), `/readyz` answers 503 so the balancer stops sending it traffic, and
 * the streams that follow runs of other processes end (cleanly: the client reconnects elsewhere
 * with `Last-Event-ID`). Its own runs go on until they finish or the grace period ends.
 */
import { setMaxListeners } from "node:events";
import { HttpError } from "../http/errors.js";

export class Lifecycle {
  private readonly drainer = new AbortController();

  constructor() {
    // Every stream of another process's run listens to it: hundreds at once are expected.
    setMaxListeners(0, this.drainer.signal);
  }

  get draining(): boolean {
    return this.drainer.signal.aborted;
  }

  /** Aborts when the process starts to drain. */
  get drained(): AbortSignal {
    return this.drainer.signal;
  }

  drain(): void {
    this.drainer.abort(new Error("the server is shutting down"));
  }

  /** Refuses a new turn while draining. */
  admit(): void {
    if (this.draining) {
      throw new HttpError(
        503,
        "shutting_down",
        "this server process is shutting down and takes no new message; send it again (the same message id) to another process",
        undefined,
        { retryable: true },
      );
    }
  }
}
