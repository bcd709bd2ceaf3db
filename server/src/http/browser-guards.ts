/**
 * What keeps other web pages out of a server the user runs on their own machine. A page from any
 * site may make the user's browser send requests to 127.0.0.1 (and, once its name resolves there,
 * read the answers: DNS rebinding), so, before anything else:
 * - `Host` must name this server (on a loopback bind: `localhost` or the bound address, plus the
 *   names allowed for a proxy in front); a rebound page's requests carry the page's own name;
 * - a request that changes something (any method but GET, HEAD, OPTIONS) with an `Origin` must
 *   come from this server's own origin or one allowed by CORS: a page cannot act through the
 *   user's browser even where its request needs no preflight;
 * - a body must be JSON (`Content-Type: application/json`): the one content type a cross-origin
 *   page cannot send without a preflight.
 * Browser apps on other origins are let in by name only (`cors`), never with credentials.
 */
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { errorResponse, HttpError } from "./errors.js";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Addresses only this machine reaches: a server bound there needs no token. */
const LOOPBACK = /^(127(\.\d{1,3}){3}|::1|\[::1\]|localhost)$/i;

export function isLoopback(host: string): boolean {
  return LOOPBACK.test(host);
}

/** The host name of a `Host` header or an origin's authority, lower case, without its port (`[::1]` kept in brackets). */
function hostName(authority: string): string {
  const m = /^(\[[^\]]*\]|[^:]*)(:\d*)?$/.exec(authority.trim().toLowerCase());
  return m ? m[1]!.replace(/\.$/, "") : "";
}

/** The names a loopback-bound server answers to: localhost, the address it is bound to, and those given. */
export function loopbackHosts(bound: string, more: readonly string[] = []): string[] {
  const address = bound.includes(":") && !bound.startsWith("[") ? `[${bound}]` : bound;
  return [...new Set(["localhost", "127.0.0.1", "[::1]", address.toLowerCase(), ...more.map((h) => hostName(h))])];
}

/** Refuses a request whose `Host` is none of `hosts` (403 `forbidden_host`). */
export function hostCheck(hosts: readonly string[]): MiddlewareHandler {
  const allowed = new Set(hosts.map((h) => hostName(h)));
  return async (c, next) => {
    const host = c.req.header("host") ?? "";
    if (!allowed.has(hostName(host))) {
      return errorResponse(
        c,
        new HttpError(
          403,
          "forbidden_host",
          `this server answers to ${[...allowed].join(", ")}, not to the host '${host}' (a proxy in front: start it with --allowed-host NAME)`,
          "Host",
        ),
      );
    }
    await next();
  };
}

/** An origin as CORS names it (`https://app.example.com`, with a port if not the scheme's); `*` only on a server with a token. */
export function checkOrigin(origin: string, hasToken: boolean): string {
  if (origin === "*") {
    if (!hasToken)
      throw new TypeError("cors '*' lets any web page call the API: give a token too, or name the origins allowed");
    return origin;
  }
  const url = URL.canParse(origin) ? new URL(origin) : undefined;
  if (!url || !/^https?:$/.test(url.protocol) || url.origin !== origin.replace(/\/$/, "")) {
    throw new TypeError(`cors: '${origin}' is not an origin (scheme://host[:port], such as https://app.example.com)`);
  }
  return url.origin;
}

/** Cross-origin requests from `origins` (`*`: any, only on a server with a token), answered to their preflight; never with credentials. */
export function corsFor(origins: readonly string[]): MiddlewareHandler {
  return cors({
    origin: origins.includes("*") ? "*" : [...origins],
    allowMethods: ["GET", "POST", "DELETE", "OPTIONS"],
    allowHeaders: ["authorization", "content-type", "last-event-id"],
    exposeHeaders: ["x-autograms-run-id"],
    credentials: false,
    maxAge: 600,
  });
}

/**
 * A request that changes something must come from an allowed origin when it names one, and send
 * its body as JSON.
 */
export function writeCheck(origins: readonly string[]): MiddlewareHandler {
  const allowed = new Set(origins);
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const origin = c.req.header("origin");
    if (
      origin !== undefined &&
      !allowed.has("*") &&
      !allowed.has(origin) &&
      !sameOrigin(origin, c.req.header("host"))
    ) {
      return errorResponse(
        c,
        new HttpError(
          403,
          "forbidden_origin",
          `requests from the origin '${origin}' are not allowed (a browser app on another origin: start the server with --cors ${origin})`,
          "Origin",
        ),
      );
    }
    const length = c.req.header("content-length");
    const hasBody = (length !== undefined && length !== "0") || c.req.header("transfer-encoding") !== undefined;
    const type = c.req.header("content-type") ?? "";
    if (hasBody && !/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) {
      return errorResponse(
        c,
        new HttpError(
          415,
          "unsupported_media_type",
          `send the body as JSON (Content-Type: application/json), not ${type === "" ? "without a Content-Type" : type}`,
          "Content-Type",
        ),
      );
    }
    await next();
  };
}

/**
 * The page that sent the request is this server's own: its origin names the host the request was
 * sent to (the scheme is not compared: a proxy in front may end TLS).
 */
function sameOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false;
  return origin.toLowerCase().replace(/^[a-z][\w+.-]*:\/\//, "") === host.toLowerCase();
}
