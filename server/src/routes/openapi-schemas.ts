/**
 * What a route file describes its endpoints with, for the OpenAPI document (openapi-document.ts):
 * OpenAPI's path items whose schemas are zod schemas (the very ones a route validates with, where
 * it validates), and the schemas several routes share, named in the document's `components`.
 */
import { z } from "zod";
import { LAST_EVENT_ID } from "../http/event-id.js";
import { THREAD_ID } from "../http/request.js";

/** OpenAPI's objects, their schemas zod's here and JSON Schema in the document made of them (`S`). */
type Content<S = z.ZodType> = Record<string, { schema?: S }>;

export interface ApiResponse<S = z.ZodType> {
  description: string;
  content?: Content<S>;
}

export interface Parameter<S = z.ZodType> {
  name: string;
  in: "path" | "query" | "header";
  required?: boolean;
  description?: string;
  schema: S;
}

export interface Operation<S = z.ZodType> {
  summary: string;
  /** Only where it differs from the document's (the probes need no token). */
  security?: Record<string, string[]>[];
  parameters?: Parameter<S>[];
  requestBody?: { required: true; content: Content<S> };
  responses: Record<number, ApiResponse<S>>;
}

/** A route file's endpoints: path (OpenAPI's `{id}`, not Hono's `:id`) -> method -> operation. */
export type ApiPaths<S = z.ZodType> = Record<
  string,
  Partial<Record<"get" | "post" | "put" | "patch" | "delete", Operation<S>>>
>;

export const ThreadId = z.string().regex(THREAD_ID);

export const ApiError = z.object({
  error: z.object({ code: z.string(), message: z.string(), field: z.string().optional() }),
});

export const ApiUsage = z
  .object({
    inputTokens: z.int().optional(),
    outputTokens: z.int().optional(),
    cost: z.number().optional().meta({ description: "in the price table's currency" }),
  })
  .meta({
    description:
      "Tokens as the model reported them (absent: none reported, e.g. the offline model), and their cost from the server's price table (--prices): absent when it prices not every part",
  });

export const ApiThread = z.object({
  id: z.string(),
  title: z.string().nullable().meta({ description: "given by hand, else the first line of the first user message" }),
  agent: z.string().nullable(),
  graphHash: z.string().nullable(),
  version: z.int(),
  done: z.boolean(),
  firstSeq: z.int(),
  createdAt: z.int(),
  updatedAt: z.int(),
  forkedFrom: z.object({ id: z.string(), turn: z.int() }).nullable(),
  running: z
    .object({ owner: z.string(), messageId: z.string().nullable(), since: z.int(), expiresAt: z.int() })
    .nullable(),
  stale: z.string().nullable().optional().meta({
    description:
      "why the conversation cannot resume on the agent served now (an edit changed where it stands; the next message is refused, or with --on-stale restart begins it again), else null; given by GET /api/threads/{id} and by the list with ?stale=1",
  }),
});

/** A turn as routes/threads.ts `turnJson` makes it. */
export const ApiTurn = z.object({
  seq: z.int(),
  messageId: z.string().nullable(),
  user: z.string().nullable(),
  reply: z.string().nullable(),
  status: z.enum(["ok", "interrupted", "replaced"]),
  changes: z.array(
    z.object({ node: z.string(), name: z.string(), before: z.unknown().optional(), after: z.unknown().optional() }),
  ),
  trace: z.array(z.string()).meta({ description: "the nodes the turn went through, in order" }),
  startedAt: z.int(),
  committedAt: z.int(),
  usage: ApiUsage.optional().meta({ description: "the sum of its model calls' usage" }),
  toolCalls: z
    .array(
      z.object({
        node: z.string(),
        tool: z.string(),
        arguments: z.string().meta({ description: "JSON text, as written" }),
        result: z.unknown().optional(),
        error: z.string().optional(),
      }),
    )
    .optional()
    .meta({ description: "the tools it called, in order (the model's calls and its code's); absent when none" }),
});

/** The schemas the document names (`#/components/schemas/NAME`) wherever a route uses them. */
export const COMPONENTS: Record<string, z.ZodType> = {
  ThreadId,
  Error: ApiError,
  ThreadInfo: ApiThread,
  Turn: ApiTurn,
  Usage: ApiUsage,
};

export const json = (schema: z.ZodType): Content => ({ "application/json": { schema } });
export const body = (schema: z.ZodType) => ({ required: true as const, content: json(schema) });
export const answer = (description: string, schema: z.ZodType): ApiResponse => ({ description, content: json(schema) });
/** An answer that is an event stream, of frames as `frames` says. */
export const stream = (description: string, frames: string): ApiResponse => ({
  description,
  content: { "text/event-stream": { schema: z.string().meta({ description: frames }) } },
});
export const error = (description: string): ApiResponse => answer(description, ApiError);

export const threadIdParam: Parameter = { name: "id", in: "path", required: true, schema: ThreadId };
export const lastEventIdParam: Parameter = {
  name: "Last-Event-ID",
  in: "header",
  required: false,
  schema: z.string().regex(LAST_EVENT_ID),
  description:
    "The `id` of the last frame received, `RUN:N`: only the frames of run RUN after its Nth are sent (`RUN:0`: all of them); without it, the thread's run in progress from its start; `0`: the whole of the thread's latest run, in progress or ended.",
};

/** What any request that sends a message may also be answered. */
export const refusals = {
  409: error(
    "`thread_busy` (policy reject), `thread_ended`, or `message_conflict`: the message id was sent before with another text",
  ),
  403: error(
    "`forbidden_host`: the Host names no host this server answers to; `forbidden_origin`: a web page of another origin",
  ),
  415: error("`unsupported_media_type`: the body is not sent as application/json"),
  503: error(
    "`store_unavailable`: the store cannot be reached or cannot write, nothing committed (`retryable: true`); `shutting_down`: the process is draining",
  ),
};

/** What a resume may also be answered. */
export const resumeRefusals = {
  400: error("a Last-Event-ID that is not RUN:N"),
  410: error("`run_lost`: the run named was stopped before it stored any event; send its message again"),
};
