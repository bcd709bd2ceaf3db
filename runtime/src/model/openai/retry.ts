// Which failures of the openai client pass, and what the server asked: the policy that the shared
// retry loop (../retries.ts) follows for OpenAIModel.
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { RETRIED_STATUS, retryAfter } from "../retries.js";
import { BodyTimeout } from "./guarded-fetch.js";
import { statusText } from "../errors.js";
import { isCutOff } from "./failures.js";

/** Why a failed attempt is worth another, in words; null when another would fail the same way. */
export function retryReason(err: unknown): string | null {
  // A stream that stalled is worth another only while none of its text has been passed on: the caller says.
  if (err instanceof BodyTimeout) return err.message;
  if (err instanceof APIUserAbortError) return null;
  if (err instanceof APIConnectionTimeoutError) return "no answer in time";
  if (err instanceof APIConnectionError) return "the server cannot be reached";
  if (isCutOff(err)) return "the connection was lost";
  if (err instanceof APIError && err.status !== undefined) {
    const asked = err.headers?.get("x-should-retry");
    if (asked === "false") return null;
    if (asked === "true" || RETRIED_STATUS(err.status)) return statusText(err.status);
  }
  return null;
}

/** The wait the server asks for, in ms. */
export function serverWait(err: unknown): number | undefined {
  if (!(err instanceof APIError) || !err.headers) return undefined;
  const headers = err.headers;
  return retryAfter((name) => headers.get(name));
}

export const statusOf = (err: unknown) => (err instanceof APIError ? err.status : undefined);

export const aborted = () => new APIUserAbortError();
