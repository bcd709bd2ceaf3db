import type { MiddlewareHandler } from "hono";
import { bearerAuth } from "hono/bearer-auth";
import { HTTPException } from "hono/http-exception";
import { errorResponse, HttpError } from "./errors.js";

const CHALLENGE = 'Bearer realm="autograms"';

/** A refusal as every other of the API: `{ error: { code: "unauthorized", message } }`, 401. */
const refusal = (message: string) => ({
  wwwAuthenticateHeader: CHALLENGE,
  message: (c: Parameters<MiddlewareHandler>[0]) => errorResponse(c, new HttpError(401, "unauthorized", message)),
});

/**
 * Every request must carry `Authorization: Bearer <token>`: Hono's bearer-auth, which compares
 * digests in constant time (so the token's length leaks nothing either), answering with the API's
 * errors.
 */
export function bearerToken(token: string): MiddlewareHandler {
  const check = bearerAuth({
    token,
    noAuthenticationHeader: refusal("this server needs Authorization: Bearer <token>"),
    invalidAuthenticationHeader: refusal("this server needs Authorization: Bearer <token>"),
    invalidToken: refusal("the bearer token is wrong"),
  });
  return async (c, next) => {
    try {
      return await check(c, next);
    } catch (err) {
      // Its refusal is thrown, made by `refusal`: the answer as it is, not an error of the app.
      if (err instanceof HTTPException) return err.getResponse();
      throw err;
    }
  };
}

/** A bearer token's characters (RFC 6750's b64token), the only ones the check takes. */
const BEARER_TOKEN = /^[A-Za-z0-9._~+/-]+=*$/;

/**
 * A token a client can send in an `Authorization` header as given: a space, a control character
 * or a letter outside ASCII never arrives there, and other punctuation is not a bearer token's.
 */
export function checkToken(token: string): void {
  if (!BEARER_TOKEN.test(token)) {
    throw new TypeError(
      token.trim() === ""
        ? "the token is empty"
        : "the token must be visible ASCII characters (no spaces, no control characters), those of a bearer token: letters, digits, - . _ ~ + / and = at its end only; a client could never send another as given",
    );
  }
}
