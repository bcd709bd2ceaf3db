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

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  408: "Request Timeout",
  409: "Conflict",
  413: "Payload Too Large",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** "429 Too Many Requests", "599". */
export const statusText = (status: number) => `${status}${STATUS_TEXT[status] ? ` ${STATUS_TEXT[status]}` : ""}`;
