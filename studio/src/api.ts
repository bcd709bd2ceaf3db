/**
 * The server's API as the page uses it. A server started with a token wants it on every API
 * request: asked once, kept for the tab. Every URL is relative, so the page also works when the
 * app is mounted under a path.
 */
import type { ThreadView } from "./types.js";

export class ApiError extends Error {
  constructor(
    readonly code: string,
    readonly detail: string,
    readonly status: number,
  ) {
    super(`${code}: ${detail}`);
  }
}

function withToken(headers: Record<string, string>): Record<string, string> {
  const token = sessionStorage.getItem("autograms-token");
  if (token) headers.authorization = `Bearer ${token}`;
  return headers;
}

export async function request(
  path: string,
  init: RequestInit & { headers?: Record<string, string> } = {},
): Promise<Response> {
  for (;;) {
    const res = await fetch(path, { ...init, headers: withToken({ ...init.headers }) });
    if (res.status !== 401) return res;
    const token = prompt("This server needs its token (autograms serve --token):");
    if (!token) return res;
    sessionStorage.setItem("autograms-token", token.trim());
  }
}

/** The error a refused request carries: its code and message, or the HTTP status. */
export async function refusal(res: Response): Promise<ApiError> {
  const data = (await res.json().catch(() => null)) as { error?: { code: string; message: string } } | null;
  const err = data?.error ?? { code: `http_${res.status}`, message: res.statusText };
  return new ApiError(err.code, err.message, res.status);
}

/** A request with a JSON body (none when `body` is undefined); its answer as it comes. */
export function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return request(path, {
    method,
    headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** The answer of a request the server took; a refusal is thrown as an ApiError. */
export async function accepted(res: Response): Promise<Response> {
  if (!res.ok) throw await refusal(res);
  return res;
}

/** JSON in and out; a refusal is thrown as an ApiError. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await accepted(await send(method, path, body));
  return (res.status === 204 ? null : await res.json()) as T;
}

/** A thread and its turns (GET /api/threads/:id); null when there is no such thread. */
export function threadView(id: string): Promise<ThreadView | null> {
  return api<ThreadView>("GET", `api/threads/${encodeURIComponent(id)}`).catch((e: unknown) => {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  });
}
