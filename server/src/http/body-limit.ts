/**
 * The bound on a request's body. A body whose Content-Length says it is too large is refused
 * before any of it is read; one sent without a length (chunked) is counted as it is read, by
 * Hono's `bodyLimit`. Only the latter needs the request's body as a web stream: asked for it, the
 * Node adapter builds a whole `Request` around the socket for every request, and reading a chat
 * message through it cost the server more than the rest of the request's handling (the adapter
 * reads a body of known length straight from the socket when nothing asked for the stream).
 */
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit as countedBodyLimit } from "hono/body-limit";

export function bodyLimit(maxBytes: number, tooLarge: (c: Context) => Response): MiddlewareHandler {
  const counted = countedBodyLimit({ maxSize: maxBytes, onError: tooLarge });
  return (c, next) => {
    // Without Transfer-Encoding a body is exactly Content-Length bytes: Node's parser reads no
    // more for it, and a fetch Request's body is as long as its header says.
    if (c.req.header("transfer-encoding") !== undefined) return counted(c, next);
    const length = c.req.header("content-length");
    if (length !== undefined && Number.parseInt(length, 10) > maxBytes) return Promise.resolve(tooLarge(c));
    return next();
  };
}
