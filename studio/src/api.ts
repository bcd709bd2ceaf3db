/**
 * The server's API as the page uses it. A server started with a token wants it on every API
 * request: asked once, kept for the tab. Every URL is relative, so the page also works when the
 * app is mounted under a path.
 */

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

/** JSON in and out; a refusal is thrown as an ApiError. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await request(path, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 204) return null as T;
  if (!res.ok) throw await refusal(res);
  return (await res.json()) as T;
}
