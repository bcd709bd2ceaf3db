/** The OpenAPI 3.1 document of the HTTP API; docs/serving.md says the same in prose. */
const json = (schema: object) => ({ "application/json": { schema } });
const sse = (description: string) => ({ "text/event-stream": { schema: { type: "string", description } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const error = (description: string) => ({ description, content: json(ref("Error")) });
const threadId = { name: "id", in: "path", required: true, schema: ref("ThreadId") };
const lastEventId = {
  name: "Last-Event-ID",
  in: "header",
  required: false,
  schema: { type: "string", pattern: "^(0|[A-Za-z0-9_.\\-]{1,200}:[0-9]{1,15})$" },
  description:
    "The `id` of the last frame received, `RUN:N`: only the frames of run RUN after its Nth are sent (`RUN:0`: all of them); without it, the thread's run in progress from its start; `0`: the whole of the thread's latest run, in progress or ended.",
};
/** What any request that sends a message may also be answered. */
const refusals = {
  403: error(
    "`forbidden_host`: the Host names no host this server answers to; `forbidden_origin`: a web page of another origin",
  ),
  415: error("`unsupported_media_type`: the body is not sent as application/json"),
  503: error(
    "`store_unavailable`: the store cannot be reached or cannot write, nothing committed (`retryable: true`); `shutting_down`: the process is draining",
  ),
};
/** What a resume may also be answered. */
const resumeRefusals = {
  400: error("a Last-Event-ID that is not RUN:N"),
  410: error("`run_lost`: the run named was stopped before it stored any event; send its message again"),
};

/** `playground`: the server serves it at `GET /` (without it, `/` is an unknown endpoint and not listed). */
export function openApiDocument(agent: string, options: { playground: boolean }): object {
  return {
    openapi: "3.1.0",
    info: {
      title: `autograms serve: ${agent}`,
      version: "1",
      description:
        "An AutoGRAMS agent over HTTP: the threads of its store, the AI SDK UI message stream (v1), AG-UI, and the run event stream.",
    },
    security: [{ bearer: [] }, {}],
    paths: {
      "/api/agent": {
        get: {
          summary: "The agent, its compiled graph, and its last build's outcome (serve --watch)",
          responses: {
            200: {
              description: "the agent",
              content: json({
                type: "object",
                required: ["name", "graph", "build"],
                properties: {
                  name: { type: "string" },
                  graph: { type: "object" },
                  build: {
                    type: "object",
                    required: ["ok", "at", "watching"],
                    description:
                      "ok: the graph is the latest build's; else the latest save failed to build (message, and the compiler's diagnostics tsc-style) and the last good build goes on serving",
                    properties: {
                      ok: { type: "boolean" },
                      at: { type: "integer" },
                      watching: { type: "boolean", description: "new builds may come (serve --watch)" },
                      message: { type: "string" },
                      diagnostics: { type: "string" },
                    },
                  },
                },
              }),
            },
          },
        },
      },
      "/api/threads": {
        get: {
          summary: "The threads, the most recently active first",
          parameters: [
            { name: "limit", in: "query", schema: { type: "integer", minimum: 0, maximum: 1000, default: 100 } },
            {
              name: "stale",
              in: "query",
              description: "1: each thread says whether it can resume on the agent served now (`stale`)",
              schema: { type: "string", enum: ["1"] },
            },
          ],
          responses: {
            200: {
              description: "the threads",
              content: json({ type: "object", properties: { threads: { type: "array", items: ref("ThreadInfo") } } }),
            },
            400: error("a bad limit"),
          },
        },
      },
      "/api/threads/{id}": {
        get: {
          summary: "A thread and its turns",
          parameters: [threadId],
          responses: {
            200: {
              description: "the thread",
              content: json({
                type: "object",
                properties: {
                  id: { type: "string" },
                  thread: {
                    allOf: [
                      ref("ThreadInfo"),
                      {
                        type: "object",
                        properties: { usage: { ...ref("Usage"), description: "the sum of its turns' usage" } },
                      },
                    ],
                  },
                  turns: { type: "array", items: ref("Turn") },
                },
              }),
            },
            404: error("no such thread"),
          },
        },
        patch: {
          summary: "Name a thread (null: called by its first user message again)",
          parameters: [threadId],
          requestBody: {
            required: true,
            content: json({
              type: "object",
              required: ["title"],
              properties: { title: { type: ["string", "null"], maxLength: 200 } },
            }),
          },
          responses: {
            200: {
              description: "the thread",
              content: json({ type: "object", properties: { thread: ref("ThreadInfo") } }),
            },
            400: error("a bad title"),
            404: error("no such thread"),
          },
        },
        delete: {
          summary: "Delete a thread and everything stored of it",
          parameters: [threadId],
          responses: { 204: { description: "deleted" }, 404: error("no such thread") },
        },
      },
      "/api/threads/{id}/memory": {
        get: {
          summary: "The thread's memory as it was after a turn",
          parameters: [
            threadId,
            {
              name: "turn",
              in: "query",
              schema: { type: "integer", minimum: 0 },
              description: "default: the last turn",
            },
          ],
          responses: {
            200: {
              description: "the memory (null before the first turn)",
              content: json({
                type: "object",
                properties: { turn: { type: "integer" }, memory: { type: ["object", "null"] } },
              }),
            },
            400: error("no such turn, or pruned"),
            404: error("no such thread"),
          },
        },
      },
      "/api/threads/{id}/turns/{seq}/calls": {
        get: {
          summary:
            "What a turn sent to the model and got back (prompts, choices, tool calls, hooks, prints), rebuilt by replaying it from its recording: no model, tool or hook runs; replayed once per turn and build, then kept",
          parameters: [threadId, { name: "seq", in: "path", required: true, schema: { type: "integer", minimum: 1 } }],
          responses: {
            200: {
              description: "the turn's events that made calls, prompts included",
              content: json({
                type: "object",
                properties: {
                  seq: { type: "integer" },
                  user: { type: ["string", "null"] },
                  steps: { type: "integer", description: "the turn's trace events, those not given here included" },
                  events: {
                    type: "array",
                    items: { type: "object", properties: { usage: ref("Usage") } },
                    description: "each with the `usage` of its model calls (and its `model`), where reported",
                  },
                  usage: { ...ref("Usage"), description: "the turn's: the sum of its events'" },
                  stopped: {
                    type: ["string", "null"],
                    description:
                      "why the replay stopped short (the agent changed since, its deadline, a turn stored before calls from code were recorded), or null",
                  },
                },
              }),
            },
            400: error("no such turn"),
            404: error("no such thread"),
            503: error(
              "`replays_busy`: as many turns as the queue holds wait to be replayed; ask again after Retry-After",
            ),
          },
        },
      },
      "/api/threads/{id}/fork": {
        post: {
          summary: "A new thread with the first `turn` turns of this one",
          parameters: [threadId],
          requestBody: {
            required: true,
            content: json({
              type: "object",
              required: ["turn"],
              properties: { turn: { type: "integer", minimum: 0 }, id: ref("ThreadId") },
            }),
          },
          responses: {
            201: {
              description: "the new thread",
              content: json({ type: "object", properties: { thread: ref("ThreadInfo") } }),
            },
            400: error("a bad turn"),
            404: error("no such thread"),
          },
        },
      },
      "/api/threads/{id}/variables": {
        post: {
          summary:
            "Set variables of one frame of a thread's memory to new values (fork it at a turn first to try a change beside the original); recorded as a turn without message or reply",
          parameters: [threadId],
          requestBody: {
            required: true,
            content: json({
              type: "object",
              required: ["frame", "set"],
              properties: {
                frame: {
                  type: "integer",
                  minimum: 0,
                  description:
                    "the frame of the memory's stack: 0 is main (the globals), the last is where the conversation stands",
                },
                set: {
                  type: "object",
                  description: "each variable's new value (JSON); the frame must have the variable",
                },
              },
            }),
          },
          responses: {
            200: {
              description: "the thread, and the turn that records the change (no message, no reply)",
              content: json({ type: "object", properties: { thread: ref("ThreadInfo"), turn: { type: "object" } } }),
            },
            400: error("a bad body, or a thread with no turn yet"),
            404: error("no such thread"),
            409: error("the thread is busy"),
            422: error("bad_input: no such frame or variable, a value that is not JSON, or an ended conversation"),
          },
        },
      },
      "/api/threads/{id}/migrate": {
        post: {
          summary:
            "Move a thread that cannot resume on the agent served (stale_memory) to one of its nodes that a conversation waits at, keeping its variables and turns; its next message answers that node",
          parameters: [threadId],
          requestBody: {
            required: true,
            content: json({
              type: "object",
              required: ["node"],
              properties: { node: { type: "string", description: "the node's name in the graph" } },
            }),
          },
          responses: {
            200: {
              description: "the thread, and the turn that records the move (no message, no reply)",
              content: json({ type: "object", properties: { thread: ref("ThreadInfo"), turn: { type: "object" } } }),
            },
            404: error("no such thread"),
            409: error("the thread is busy"),
            422: error("bad_migration: the node cannot take the conversation (the message says why)"),
          },
        },
      },
      "/api/threads/{id}/runs": {
        post: {
          summary: "Send a message (or null: the agent's opening on a new thread) and stream the run's events",
          parameters: [threadId],
          requestBody: {
            required: true,
            content: json({
              type: "object",
              required: ["message"],
              properties: {
                message: { type: ["string", "null"] },
                messageId: { type: "string", description: "idempotency key: sent again, the same turn is answered" },
              },
            }),
          },
          responses: {
            200: {
              description:
                "the run's events: `id:` `RUN:N`, N the event's number, `event:` its type, `data:` `{ seq, event }`",
              content: sse("NumberedRunEvent frames"),
            },
            400: error("bad input"),
            409: error(
              "`thread_busy` (policy reject), `thread_ended`, or `message_conflict`: the message id was sent before with another text",
            ),
            ...refusals,
          },
        },
      },
      "/api/threads/{id}/runs/latest/stream": {
        get: {
          summary: "Resume the run Last-Event-ID names (RUN:N) after its Nth event; without it, the run in progress",
          parameters: [threadId, lastEventId],
          responses: {
            ...resumeRefusals,
            200: { description: "the rest of the run", content: sse("NumberedRunEvent frames") },
            204: { description: "no run in progress, or nothing after Last-Event-ID" },
            404: error("no such thread"),
          },
        },
      },
      "/api/chat": {
        post: {
          summary: "The Vercel AI SDK chat endpoint (UI message stream protocol v1)",
          requestBody: {
            required: true,
            content: json({
              type: "object",
              required: ["id", "messages"],
              properties: {
                id: ref("ThreadId"),
                messages: {
                  type: "array",
                  description: "the last one, the user's, is the turn; none of the user's: the agent's opening",
                  items: {
                    type: "object",
                    required: ["id", "role", "parts"],
                    properties: {
                      id: { type: "string" },
                      role: { enum: ["system", "user", "assistant"] },
                      parts: { type: "array", items: { type: "object" } },
                    },
                  },
                },
                trigger: {
                  enum: ["submit-message", "regenerate-message"],
                  description: "regenerate-message: the last turn run again from the memory before it, replacing it",
                },
                messageId: {
                  type: "string",
                  description: "regenerate-message: the reply to generate again (the last, reply-<turn>)",
                },
              },
            }),
          },
          responses: {
            200: {
              description:
                "`x-vercel-ai-ui-message-stream: v1`; frames `start` (messageId `reply-<turn>`), `text-start`, `text-delta`, `text-end`, `data-step`, `data-tool-call`, `finish`, then `[DONE]`; each with an `id:` `RUN:N`, N increasing",
              content: sse("UI message stream chunks"),
            },
            400: error("bad input"),
            404: error("regenerate-message: no such thread"),
            409: error("the thread is busy (with --busy reject) or has ended"),
          },
        },
      },
      "/api/chat/{id}/stream": {
        get: {
          summary:
            "Resume the run Last-Event-ID names (RUN:N) as a UI message stream; without it, the run in progress; with 0, the latest run",
          parameters: [threadId, lastEventId],
          responses: {
            ...resumeRefusals,
            200: {
              description: "the frames after Last-Event-ID (all of them without it)",
              content: sse("UI message stream chunks"),
            },
            204: { description: "no thread, no run in progress, or nothing after Last-Event-ID" },
          },
        },
      },
      "/api/chat/{id}/messages": {
        get: {
          summary:
            "The thread as the AI SDK's UIMessage[] (user messages with their ids, replies as reply-<turn>, the user message in flight last); stopped and replaced turns left out",
          parameters: [threadId],
          responses: {
            200: {
              description: "the messages ([] for a chat with no thread)",
              content: json({
                type: "array",
                items: {
                  type: "object",
                  required: ["id", "role", "parts"],
                  properties: {
                    id: { type: "string" },
                    role: { enum: ["user", "assistant"] },
                    parts: {
                      type: "array",
                      items: { type: "object", properties: { type: { const: "text" }, text: { type: "string" } } },
                    },
                    metadata: { type: "object", properties: { turn: { type: "integer" } } },
                  },
                },
              }),
            },
          },
        },
      },
      "/api/chat/{id}/stop": {
        post: {
          summary:
            "Stop the thread's run in progress: its model request aborted, its message kept as an interrupted turn (no reply, memory unchanged)",
          parameters: [threadId],
          responses: {
            200: {
              description: "what the stop kept",
              content: json({ type: "object", properties: { runId: { type: ["string", "null"] }, turn: ref("Turn") } }),
            },
            204: { description: "nothing was running (or no such thread)" },
          },
        },
      },
      "/ag-ui": {
        post: {
          summary:
            "AG-UI: a RunAgentInput in (threadId: the thread; the last message, the user's, is the turn; none: the agent's opening), AG-UI events out",
          requestBody: {
            required: true,
            content: json({
              type: "object",
              required: ["threadId", "runId", "messages"],
              description: "AG-UI RunAgentInput (checked with @ag-ui/core's schema)",
            }),
          },
          responses: {
            200: {
              description:
                "`data:` AG-UI events: RUN_STARTED, STATE_SNAPSHOT, STEP_STARTED / STEP_FINISHED per node, TEXT_MESSAGE_START / CONTENT / END, STATE_DELTA (JSON Patch), RUN_FINISHED or RUN_ERROR; each with an `id:` `RUN:1`, `RUN:2`, ... per AG-UI event of the run (RUN: the POST's runId)",
              content: sse("AG-UI events"),
            },
            400: error("bad input"),
            409: error(
              "`thread_busy` (policy reject), `thread_ended`, or `message_conflict`: the message id was sent before with another text",
            ),
            ...refusals,
          },
        },
      },
      "/ag-ui/{threadId}/stream": {
        get: {
          summary:
            "Resume the run Last-Event-ID (RUN:N, the id of the last AG-UI event received) or runId names, as AG-UI events; with neither, a run in progress from RUN_STARTED",
          parameters: [
            { name: "threadId", in: "path", required: true, schema: ref("ThreadId") },
            lastEventId,
            {
              name: "runId",
              in: "query",
              required: false,
              schema: { type: "string", pattern: "^[A-Za-z0-9_.\\-]{1,200}$" },
              description:
                "the AG-UI runId the POST gave: the run resumed (from its start without Last-Event-ID), named again in RUN_STARTED and RUN_FINISHED",
            },
          ],
          responses: {
            ...resumeRefusals,
            200: {
              description:
                "the AG-UI events after Last-Event-ID, numbered as the first stream numbered them, after the run as it stood there (RUN_STARTED, STATE_SNAPSHOT, the open step and text message, each numbered Last-Event-ID); empty when there is nothing to send (no thread, no run in progress, nothing after Last-Event-ID)",
              content: sse("AG-UI events"),
            },
            400: error("a bad Last-Event-ID or runId"),
          },
        },
      },
      ...(options.playground
        ? {
            "/": {
              get: {
                summary: "The playground: a page to talk to the agent and watch it run",
                responses: { 200: { description: "HTML", content: { "text/html": {} } } },
              },
            },
          }
        : {}),
      "/openapi.json": { get: { summary: "This document", responses: { 200: { description: "OpenAPI 3.1" } } } },
      "/healthz": {
        get: {
          summary: "Liveness: the process answers",
          security: [{}],
          responses: {
            200: {
              description: '`{ status: "ok" }`',
              content: json({ type: "object", properties: { status: { const: "ok" } } }),
            },
          },
        },
      },
      "/readyz": {
        get: {
          summary:
            "Readiness: the process takes new turns (not draining, its store answers, its worker threads all serve)",
          security: [{}],
          responses: {
            200: {
              description: '`{ status: "ready", runs }`',
              content: json({ type: "object", properties: { status: { const: "ready" }, runs: { type: "integer" } } }),
            },
            503: {
              description:
                '`{ status: "draining" }`; `{ status: "store_unavailable", why }`: the store cannot take a write or a request met its file damaged, and why (never where it is); `{ status: "workers_unavailable", why }`: fewer worker threads serve than the pool\'s size (one crashed and its replacement is starting, or a replacement could not be started; not while a worker the pool retired is replaced); or `{ status: "dependency_down", why }`: something the agent needs is down (an MCP server)',
              content: json({
                type: "object",
                properties: {
                  status: { enum: ["draining", "store_unavailable", "workers_unavailable", "dependency_down"] },
                  why: { type: "string" },
                },
              }),
            },
          },
        },
      },
      "/metrics": {
        get: {
          summary: "Prometheus metrics of this process (autograms_*)",
          responses: { 200: { description: "Prometheus text format", content: { "text/plain": {} } } },
        },
      },
    },
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "required when the server was started with --token (or AUTOGRAMS_TOKEN)",
        },
      },
      schemas: {
        ThreadId: { type: "string", pattern: "^(?!\\.{1,2}$)[A-Za-z0-9_\\-.:@]{1,128}$" },
        Error: {
          type: "object",
          required: ["error"],
          properties: {
            error: {
              type: "object",
              required: ["code", "message"],
              properties: { code: { type: "string" }, message: { type: "string" }, field: { type: "string" } },
            },
          },
        },
        ThreadInfo: {
          type: "object",
          properties: {
            id: { type: "string" },
            title: {
              type: ["string", "null"],
              description: "given by hand, else the first line of the first user message",
            },
            agent: { type: ["string", "null"] },
            graphHash: { type: ["string", "null"] },
            version: { type: "integer" },
            done: { type: "boolean" },
            firstSeq: { type: "integer" },
            createdAt: { type: "integer" },
            updatedAt: { type: "integer" },
            forkedFrom: { type: ["object", "null"], properties: { id: { type: "string" }, turn: { type: "integer" } } },
            running: {
              type: ["object", "null"],
              properties: {
                owner: { type: "string" },
                messageId: { type: ["string", "null"] },
                since: { type: "integer" },
                expiresAt: { type: "integer" },
              },
            },
            stale: {
              type: ["string", "null"],
              description:
                "why the conversation cannot resume on the agent served now (an edit changed where it stands; the next message is refused, or with --on-stale restart begins it again), else null; given by GET /api/threads/{id} and by the list with ?stale=1",
            },
          },
        },
        Turn: {
          type: "object",
          properties: {
            seq: { type: "integer" },
            messageId: { type: ["string", "null"] },
            user: { type: ["string", "null"] },
            reply: { type: ["string", "null"] },
            status: { enum: ["ok", "interrupted", "replaced"] },
            changes: {
              type: "array",
              items: {
                type: "object",
                properties: { node: { type: "string" }, name: { type: "string" }, before: {}, after: {} },
              },
            },
            trace: {
              type: "array",
              items: { type: "string" },
              description: "the nodes the turn went through, in order",
            },
            startedAt: { type: "integer" },
            committedAt: { type: "integer" },
            usage: { ...ref("Usage"), description: "the sum of its model calls' usage" },
            toolCalls: {
              type: "array",
              description: "the tools it called, in order (the model's calls and its code's); absent when none",
              items: {
                type: "object",
                properties: {
                  node: { type: "string" },
                  tool: { type: "string" },
                  arguments: { type: "string", description: "JSON text, as written" },
                  result: {},
                  error: { type: "string" },
                },
              },
            },
          },
        },
        Usage: {
          type: "object",
          description:
            "Tokens as the model reported them (absent: none reported, e.g. the offline model), and their cost from the server's price table (--prices): absent when it prices not every part",
          properties: {
            inputTokens: { type: "integer" },
            outputTokens: { type: "integer" },
            cost: { type: "number", description: "in the price table's currency" },
          },
        },
      },
    },
  };
}
