/**
 * The guards in front of every route, in their order: a rebound page's `Host`, a browser app's
 * CORS, another site's `Origin` or a body not sent as JSON (browser-guards.ts), a missing or wrong
 * token (auth.ts), a body over the bound (body-limit.ts: 413, not read past it). The same stack
 * serves the API (app.ts) and an endpoint of another protocol (guarded-endpoint.ts).
 */
import type { Hono } from "hono";
import { bearerToken } from "./auth.js";
import { bodyLimit } from "./body-limit.js";
import { corsFor, hostCheck, writeCheck } from "./browser-guards.js";
import { errorResponse, HttpError } from "./errors.js";

export interface GuardOptions {
  /** The `Host` names answered; none: any. */
  hosts?: readonly string[];
  /** Origins let in by CORS, checked already (checkOrigin); none: only the server's own. */
  origins?: readonly string[];
  /** When set, checked already (checkToken): every request after `beforeToken` must carry it. */
  token?: string;
  /** Routes that hold nothing a token protects, answered before it is asked for. */
  beforeToken?: readonly Hono[];
  /** Routes that take no body, answered after the token before the body's bound is applied. */
  beforeBodyLimit?: readonly Hono[];
  /** Largest request body accepted, in bytes; a larger one is refused with 413 `too_large`. */
  maxBodyBytes: number;
  /** What the 413 names as the bound's setting (`--max-message-mb`). */
  bodyOption?: string;
}

/** Puts the guards on `app`, before any route mounted after this call. */
export function guard(app: Hono, options: GuardOptions): Hono {
  const origins = options.origins ?? [];
  // Other pages in the user's browser are kept out first (browser-guards.ts).
  if (options.hosts !== undefined && options.hosts.length > 0) app.use("*", hostCheck(options.hosts));
  if (origins.length > 0) app.use("*", corsFor(origins));
  app.use("*", writeCheck(origins));
  for (const routes of options.beforeToken ?? []) app.route("/", routes);
  if (options.token !== undefined) app.use("*", bearerToken(options.token));
  for (const routes of options.beforeBodyLimit ?? []) app.route("/", routes);
  const bound = options.maxBodyBytes;
  app.use(
    "*",
    // The rest of the body is not read: the connection closes after the answer, or a client
    // reusing it would find it shut under its next request.
    bodyLimit(bound, (c) => {
      c.header("connection", "close");
      return errorResponse(
        c,
        new HttpError(
          413,
          "too_large",
          `the body is larger than ${bound} bytes${options.bodyOption ? ` (${options.bodyOption})` : ""}`,
        ),
      );
    }),
  );
  return app;
}
