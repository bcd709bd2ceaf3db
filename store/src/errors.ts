/** Stable codes of everything a store can refuse. */
export type StoreErrorCode =
  /** Another run holds the thread and the busy policy is `reject`. */
  | "thread_busy"
  /** The thread does not exist (never made, or deleted). */
  | "unknown_thread"
  /** This run's lease was taken over (interrupt / rollback) or the thread moved on: nothing was committed. */
  | "lease_lost"
  /** A store URL that names no store this package can open. */
  | "bad_url"
  /** A request the thread's history cannot answer (e.g. fork at a turn that was pruned). */
  | "bad_request"
  /** The database cannot be opened or reached. */
  | "unavailable"
  /**
   * The message is being answered already: the run in progress holds the thread for this same
   * message id (sent twice at once). Nothing was started: follow that run.
   */
  | "same_message"
  /** A message id sent again with another text (each id names one message). */
  | "message_conflict"
  /** The database holds a schema newer than this package knows. */
  | "schema_too_new";

/** The one error class of the store; `message` is one line, fit to show a person as is. */
export class StoreError extends Error {
  override name = "StoreError";

  constructor(
    readonly code: StoreErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** A message id sent again with another text than the one it was first sent with. */
export function messageConflict(threadId: string, messageId: string): StoreError {
  return new StoreError(
    "message_conflict",
    `message id '${messageId}' was sent on thread ${threadId} with another text: an id names one message (send a new message with a new id)`,
  );
}
