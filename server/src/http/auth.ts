import { createHash, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { errorResponse, HttpError } from "./errors.js";

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * Every request must carry `Authorization: Bearer <token>`. Compared in constant time (through
 * digests, so the length of the token leaks nothing either).
 */
export function bearerToken(token: string): MiddlewareHandler {
  const expected = digest(token);
  return async (c, next) => {
    const m = /^Bearer[ \t]+(\S+)\s*$/i.exec(c.req.header("authorization") ?? "");
    if (!m || !timingSafeEqual(digest(m[1]!), expected)) {
      c.header("WWW-Authenticate", 'Bearer realm="autograms"');
      return errorResponse(
        c,
        new HttpError(
          401,
          "unauthorized",
          m ? "the bearer token is wrong" : "this server needs Authorization: Bearer <token>",
        ),
      );
    }
    await next();
  };
}

/**
 * A token a client can send: visible ASCII characters only (a space, a control character or a
 * letter outside ASCII could never arrive in an `Authorization` header as given).
 */
export function checkToken(token: string): void {
  if (!/^[\x21-\x7e]+$/.test(token)) {
    throw new TypeError(
      token.trim() === ""
        ? "the token is empty"
        : "the token must be visible ASCII characters (no spaces, no control characters): a client could never send it as given",
    );
  }
}
