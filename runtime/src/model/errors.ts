/** What went wrong with a model call. */
export type ModelFailure =
  | "http" // the server answered with an error status (after the client's retries, where it retries)
  | "timeout" // no answer in time (after retries)
  | "connection" // the server could not be reached (after retries)
  | "malformed" // the answer was not a well-formed completion
  | "answer" // a well-formed answer that is no valid choice, or a refusal
  | "script"; // a scripted model has no answer left for the request

/**
 * A model call failed for good. The message names the node that asked and the cause; the runtime
 * adds the node's source location.
 */
export class ModelError extends Error {
  override name = "ModelError";

  constructor(
    readonly node: string,
    readonly failure: ModelFailure,
    /** The cause alone, without the node. */
    readonly detail: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(`node '${node}': model call failed: ${detail}`, options);
  }
}
