/**
 * A local OpenAI-compatible HTTP server for tests: the real `openai` client talks to it over HTTP.
 *
 *   const server = await startOpenAIServer();
 *   server.enqueue({ text: "Hello!" }, { choice: "B" }, { status: 429 }, { text: "after the retry" });
 *   const model = new OpenAIModel({ model: "test-model", baseURL: server.baseURL, apiKey: "test" });
 *   ...
 *   expect(server.requests[0].body.messages).toEqual(...);
 *   expect(server.pending).toBe(0);
 *   await server.close();
 *
 * POST .../chat/completions answers with the next queued reply (first in, first out), else with
 * the `handler` given at start, else with a 501 that names the request ("no scripted reply left",
 * marked not to be retried). A reply is one of the `Reply` shapes below; every one of them is
 * answered as a plain JSON completion, or as server-sent events when the request asks to stream.
 * GET .../models lists the model. Requests that use a parameter listed in `unsupported` are refused
 * with a 400 as OpenAI refuses them ("Unsupported parameter"), without using up a reply.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request as the server received it. */
export interface ServerRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when there was none or it was not JSON). */
  body: any;
}

export interface ScriptedToolCall {
  id?: string;
  name: string;
  /** JSON text, sent as is (it may be malformed on purpose), or a value to serialize. */
  arguments: string | object;
}

/** A scripted answer, or a function that decides it from the request. */
export type Reply = FixedReply | ((req: ServerRequest) => Reply | Promise<Reply>);

export type FixedReply =
  /** A completion with this text. When streamed, `chunks` (if given) are the content deltas. */
  | { text: string; finishReason?: string; chunks?: string[]; logprobs?: TokenLogprob[]; usage?: WireUsage }
  /**
   * The answer to a multiple-choice request, in whatever form the request asks for: one token with
   * log-probabilities (`alternatives` adds other labels' log-probabilities to the top list) when it
   * asks for logprobs, `{"answer": label}` when it asks for a JSON schema, else the label as text.
   */
  | { choice: string; logprob?: number; alternatives?: Record<string, number> }
  /**
   * Tool calls (and optional text). Streamed, each call's arguments arrive in pieces of
   * `argumentChunk` characters (default 4); `interleave` alternates the pieces of parallel calls.
   */
  | {
      toolCalls: ScriptedToolCall[];
      text?: string;
      argumentChunk?: number;
      interleave?: boolean;
      usage?: WireUsage;
    }
  /**
   * An HTTP error with OpenAI's error body. 429 and 5xx carry `retry-after-ms: 1` so retries are
   * quick, unless `retryAfter` gives a `Retry-After` header instead (seconds, or an HTTP date).
   */
  | { status: number; message?: string; headers?: Record<string, string>; retryAfter?: string }
  /** The answer to `reply` (JSON, or events when streamed) sent `bytes` bytes (default 1) every `everyMs`. */
  | { drip: FixedReply; everyMs: number; bytes?: number }
  /** A raw body, e.g. malformed JSON. */
  | { body: string; status?: number; contentType?: string }
  /** Raw server-sent events (each string is sent as is, e.g. "data: {...}\n\n"). */
  | { sse: string[] }
  /**
   * Streamed: the chunks of `reply`, each sent when `pace(i)` resolves (i from 0), so a test can
   * hold a stream until its client has shown the text so far.
   */
  | { paced: FixedReply; pace: (chunk: number) => Promise<void> }
  /** Streamed: send the first `after` chunks of `reply`, then nothing more (a stalled stream). */
  | { stallAfter: number; reply: FixedReply }
  /** Streamed: send the first `errorAfter` chunks of `reply`, then an error event (`data: {"error": ...}`) and end. */
  | { errorAfter: number; reply: FixedReply; message?: string }
  /** Streamed: send the first `dropAfter` chunks of `reply`, then close the connection. */
  | { dropAfter: number; reply: FixedReply }
  /** Wait `ms` before answering with `then` (or, without `then`, never answer). */
  | { delay: number; then?: Reply }
  /** Close the connection without answering. */
  | { drop: true };

/**
 * The tokens an answer reports (default 1 and 1): in a plain completion always, in a stream as a
 * last chunk without choices when the request asks for it (`stream_options.include_usage`).
 */
export interface WireUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

export interface TokenLogprob {
  token: string;
  logprob: number;
  top?: Record<string, number>;
}

export interface OpenAIServerOptions {
  /** The model name reported in answers and by GET /models (default "test-model"). */
  model?: string;
  /** Further models GET /models lists after `model`. */
  models?: string[];
  /** Answers requests when no queued reply is left. */
  handler?: (req: ServerRequest) => Reply | Promise<Reply>;
  /** Request parameters refused with a 400 (e.g. ["logprobs"], ["response_format"], ["temperature"]). */
  unsupported?: string[];
}

export interface OpenAIServer {
  /** e.g. "http://127.0.0.1:41234/v1": pass it as baseURL. */
  readonly baseURL: string;
  /** Every request received, in order (the refused and the unanswered ones too). */
  readonly requests: ServerRequest[];
  /** The chat completion requests only. */
  readonly completions: ServerRequest[];
  /** Queued replies not yet used. */
  readonly pending: number;
  enqueue(...replies: Reply[]): void;
  close(): Promise<void>;
}

const RETRIED = (status: number) => status === 408 || status === 409 || status === 429 || status >= 500;

export async function startOpenAIServer(options: OpenAIServerOptions = {}): Promise<OpenAIServer> {
  const model = options.model ?? "test-model";
  const queue: Reply[] = [];
  const requests: ServerRequest[] = [];
  const completions: ServerRequest[] = [];
  let served = 0;

  const server = createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (raw += chunk));
    req.on("end", () => {
      const request: ServerRequest = {
        method: req.method ?? "GET",
        path: req.url ?? "/",
        headers: req.headers,
        body: parseJson(raw),
      };
      requests.push(request);
      route(request, res).catch((err: unknown) => {
        if (!res.headersSent)
          sendError(res, 500, `openai-server failed: ${String(err)}`, { "x-should-retry": "false" });
        else res.destroy();
      });
    });
  });

  async function route(req: ServerRequest, res: ServerResponse): Promise<void> {
    if (req.method === "GET" && req.path.endsWith("/models")) {
      return sendJson(res, 200, {
        object: "list",
        data: [model, ...(options.models ?? [])].map((id) => ({ id, object: "model", created: 0, owned_by: "test" })),
      });
    }
    if (req.method !== "POST" || !req.path.endsWith("/chat/completions")) {
      return sendError(res, 404, `openai-server: no route for ${req.method} ${req.path}`, {
        "x-should-retry": "false",
      });
    }
    completions.push(req);
    const refused = (options.unsupported ?? []).find((p) => req.body?.[p] !== undefined && req.body[p] !== null);
    if (refused) {
      return sendError(res, 400, `Unsupported parameter: '${refused}' is not supported with this model.`, {}, refused);
    }
    const reply = queue.shift() ?? (await options.handler?.(req));
    served++;
    if (reply === undefined) {
      return sendError(
        res,
        501,
        `openai-server: no scripted reply left for request #${served} (${req.method} ${req.path})`,
        { "x-should-retry": "false" },
      );
    }
    return answer(req, res, reply);
  }

  async function answer(req: ServerRequest, res: ServerResponse, reply: Reply): Promise<void> {
    if (typeof reply === "function") return answer(req, res, await reply(req));
    if ("delay" in reply) {
      await new Promise((resolve) => setTimeout(resolve, reply.delay));
      if (reply.then && !res.destroyed) return answer(req, res, reply.then);
      return; // no answer; close() ends the connection
    }
    if ("drop" in reply) return void res.socket?.destroy();
    if ("drip" in reply)
      return drip(
        res,
        req.body?.stream
          ? eventsOf(req, reply.drip, model).join("")
          : JSON.stringify(completionOf(req, reply.drip, model)),
        req.body?.stream ? "text/event-stream" : "application/json",
        reply.everyMs,
        reply.bytes ?? 1,
      );
    if ("status" in reply && !("body" in reply)) {
      const retry: Record<string, string> =
        reply.retryAfter !== undefined
          ? { "retry-after": reply.retryAfter }
          : RETRIED(reply.status)
            ? { "retry-after-ms": "1" }
            : {};
      return sendError(res, reply.status, reply.message ?? `scripted ${reply.status}`, { ...retry, ...reply.headers });
    }
    if ("body" in reply) {
      res.writeHead(reply.status ?? 200, { "content-type": reply.contentType ?? "application/json" });
      return void res.end(reply.body);
    }
    if ("sse" in reply) return sendEvents(res, reply.sse);
    if ("paced" in reply) {
      if (!req.body?.stream) throw new Error("paced needs a streaming request");
      const events = eventsOf(req, reply.paced, model);
      sendEvents(res, [], true);
      res.flushHeaders();
      for (const [i, e] of events.entries()) {
        await reply.pace(i);
        if (res.destroyed) return;
        res.write(e);
      }
      return void res.end();
    }
    if ("stallAfter" in reply || "errorAfter" in reply || "dropAfter" in reply) {
      if (!req.body?.stream) throw new Error("stallAfter, errorAfter and dropAfter need a streaming request");
      const first = (n: number) => chunksOf(req, reply.reply, model).slice(0, n).map(event);
      if ("stallAfter" in reply) return sendEvents(res, first(reply.stallAfter), true);
      if ("errorAfter" in reply) {
        return sendEvents(res, [
          ...first(reply.errorAfter),
          event({ error: { message: reply.message ?? "scripted stream error", type: "server_error" } }),
        ]);
      }
      sendEvents(res, first(reply.dropAfter), true);
      // The events written go out first, then the connection ends without the stream's last chunk.
      // The socket is ended from the callback of a last write (an SSE comment, which clients
      // ignore): the response's writes reach the socket a tick later (Node 24), and ending it at
      // once would send no response at all, a connection lost before any text.
      return void res.write(": the connection ends here\n\n", () => res.socket?.end());
    }
    if (req.body?.stream) return sendEvents(res, eventsOf(req, reply, model));
    return sendJson(res, 200, completionOf(req, reply, model));
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    completions,
    get pending() {
      return queue.length;
    },
    enqueue: (...replies) => void queue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function parseJson(raw: string): any {
  try {
    return raw === "" ? undefined : JSON.parse(raw);
  } catch {
    return undefined;
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  param: string | null = null,
): void {
  const type = status === 429 ? "rate_limit_error" : status >= 500 ? "server_error" : "invalid_request_error";
  sendJson(res, status, { error: { message, type, param, code: param ? "unsupported_parameter" : null } }, headers);
}

function sendEvents(res: ServerResponse, events: string[], keepOpen = false): void {
  if (res.destroyed) return;
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const e of events) res.write(e);
  if (!keepOpen) res.end();
}

const event = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;

/** The events of a whole streamed answer. */
const eventsOf = (req: ServerRequest, reply: FixedReply, model: string) => [
  ...chunksOf(req, reply, model).map(event),
  "data: [DONE]\n\n",
];

/** Sends `text` a few bytes at a time, until it is all sent or the client goes away. */
async function drip(
  res: ServerResponse,
  text: string,
  contentType: string,
  everyMs: number,
  bytes: number,
): Promise<void> {
  res.writeHead(200, { "content-type": contentType });
  res.flushHeaders();
  for (let i = 0; i < text.length; i += bytes) {
    if (res.destroyed) return;
    res.write(text.slice(i, i + bytes));
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  res.end();
}

type Answer = {
  content: string | null;
  toolCalls: { id: string; name: string; arguments: string }[];
  logprobs: TokenLogprob[] | null;
  finishReason: string;
  usage: WireUsage;
};

/** What a reply answers to this request, whichever way it is sent. */
function answerOf(req: ServerRequest, reply: FixedReply): Answer {
  if ("choice" in reply) {
    const label = reply.choice;
    if (req.body?.logprobs) {
      const top = { [label]: reply.logprob ?? -0.01, ...reply.alternatives };
      return {
        content: label,
        toolCalls: [],
        logprobs: [{ token: label, logprob: top[label]!, top }],
        finishReason: "length",
        usage: ONE_AND_ONE,
      };
    }
    const content = req.body?.response_format?.type === "json_schema" ? JSON.stringify({ answer: label }) : label;
    return { content, toolCalls: [], logprobs: null, finishReason: "stop", usage: ONE_AND_ONE };
  }
  if ("toolCalls" in reply) {
    const toolCalls = reply.toolCalls.map((c, i) => ({
      id: c.id ?? `call_${i}`,
      name: c.name,
      arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments),
    }));
    return {
      content: reply.text ?? null,
      toolCalls,
      logprobs: null,
      finishReason: "tool_calls",
      usage: reply.usage ?? ONE_AND_ONE,
    };
  }
  if ("text" in reply)
    return {
      content: reply.text,
      toolCalls: [],
      logprobs: reply.logprobs ?? null,
      finishReason: reply.finishReason ?? "stop",
      usage: reply.usage ?? ONE_AND_ONE,
    };
  throw new Error(`openai-server: cannot answer with ${JSON.stringify(reply)}`);
}

const wireLogprobs = (lps: TokenLogprob[] | null) =>
  lps && {
    content: lps.map((lp) => ({
      token: lp.token,
      logprob: lp.logprob,
      bytes: [...Buffer.from(lp.token)],
      top_logprobs: Object.entries(lp.top ?? { [lp.token]: lp.logprob })
        .sort(([, a], [, b]) => b - a)
        .map(([token, logprob]) => ({ token, logprob, bytes: [...Buffer.from(token)] })),
    })),
    refusal: null,
  };

const ONE_AND_ONE: WireUsage = { prompt_tokens: 1, completion_tokens: 1 };
const wireUsage = (u: WireUsage) => ({ ...u, total_tokens: u.prompt_tokens + u.completion_tokens });

let counter = 0;

function completionOf(req: ServerRequest, reply: FixedReply, model: string) {
  const a = answerOf(req, reply);
  const message = {
    role: "assistant",
    content: a.content,
    refusal: null,
    ...(a.toolCalls.length > 0 && {
      tool_calls: a.toolCalls.map((c) => ({
        id: c.id,
        type: "function",
        function: { name: c.name, arguments: c.arguments },
      })),
    }),
  };
  return {
    id: `chatcmpl-${++counter}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, logprobs: wireLogprobs(a.logprobs), finish_reason: a.finishReason }],
    usage: wireUsage(a.usage),
  };
}

function pieces(s: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

/** The chunk objects of a streamed answer: role, content deltas, tool-call fragments, finish. */
function chunksOf(req: ServerRequest, reply: FixedReply, model: string): object[] {
  const a = answerOf(req, reply);
  const id = `chatcmpl-${++counter}`;
  const chunk = (delta: object, finish: string | null = null) => ({
    id,
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  const out: object[] = [chunk({ role: "assistant", content: "" })];
  const textChunks = "chunks" in reply && reply.chunks ? reply.chunks : pieces(a.content ?? "", 5);
  for (const c of textChunks) out.push(chunk({ content: c }));
  const size = "argumentChunk" in reply && reply.argumentChunk ? reply.argumentChunk : 4;
  const perCall = a.toolCalls.map((c, index) => [
    { index, id: c.id, type: "function", function: { name: c.name, arguments: "" } },
    ...pieces(c.arguments, size).map((p) => ({ index, function: { arguments: p } })),
  ]);
  const fragments =
    "interleave" in reply && reply.interleave
      ? Array.from({ length: Math.max(0, ...perCall.map((f) => f.length)) }, (_, i) =>
          perCall.flatMap((f) => (i < f.length ? [f[i]!] : [])),
        ).flat()
      : perCall.flat();
  for (const f of fragments) out.push(chunk({ tool_calls: [f] }));
  out.push(chunk({}, a.finishReason));
  if (req.body?.stream_options?.include_usage) {
    out.push({ id, object: "chat.completion.chunk", created: 0, model, choices: [], usage: wireUsage(a.usage) });
  }
  return out;
}
