/** The threads of the store: list, show (turns with what each changed and the nodes it went through), memory at a turn, delete, fork, migrate. */
import { Hono } from "hono";
import { z } from "zod";
import { editThreadVariables, migrateThread, type TurnRecord } from "@autograms/store";
import { settingsOfTrace } from "@autograms/runtime";
import type { Agent } from "@autograms/runtime";
import type { ServerContext } from "../context.js";
import { HttpError } from "../http/errors.js";
import { integerParam, jsonBody, threadIdOf, turnParam } from "../http/request.js";
import { knownThread, type ThreadInfo } from "../own-thread.js";
import { settingsFrom } from "../settings/stored-settings.js";
import type { Prices } from "../usage/prices.js";
import { priced, usageOf, usageTotal } from "../usage/totals.js";
import {
  answer,
  body,
  error,
  threadIdParam,
  ThreadId,
  ApiThread,
  ApiTurn,
  ApiUsage,
  type ApiPaths,
} from "./openapi-schemas.js";

/** A turn as the API shows it: `threads show --json`'s `{ user, reply }` and more. */
export function turnJson(t: TurnRecord, prices: Prices | undefined) {
  const usage = usageTotal(t.trace.map(usageOf), prices);
  const toolCalls = toolCallsOf(t);
  const settings = settingsOfTrace(t.trace);
  return {
    seq: t.seq,
    messageId: t.messageId,
    user: t.user,
    reply: t.reply,
    status: t.status,
    changes: t.trace.flatMap((e) =>
      ((e.changes ?? []) as { name: string; before?: unknown; after: unknown }[]).map((c) => ({ node: e.node, ...c })),
    ),
    // The nodes the turn went through, each once per visit (a node's action and its transition are two steps).
    trace: t.trace.map((e) => e.node).filter((node, i, all) => i === 0 || all[i - 1] !== node),
    startedAt: t.startedAt,
    committedAt: t.committedAt,
    // The tokens the turn's model calls used (and their cost, where priced); absent when none were reported.
    ...(usage && { usage }),
    // The model settings chosen for its thread that its model calls ran with (routes/settings.ts).
    ...(settings && { settings }),
    // The tools it called, in order, so that a chat can show each call where it happened.
    ...(toolCalls.length > 0 && { toolCalls }),
  };
}

/** A turn's tool calls as its stored trace keeps them: the model's and those of the agent's code. */
function toolCallsOf(t: TurnRecord) {
  return t.trace.flatMap((e) =>
    e.kind === "tool_call"
      ? [
          {
            node: e.node,
            tool: e.tool,
            arguments: e.arguments,
            ...("result" in e && { result: e.result }),
            ...(e.error !== undefined && { error: e.error }),
          },
        ]
      : [],
  );
}

/**
 * A turn's calls (turn-calls.ts's JSON) with the cost of each step's tokens, where priced, and the
 * turn's total.
 */
function pricedCalls(text: string, prices: Prices | undefined): Record<string, unknown> {
  const calls = JSON.parse(text) as { events: { usage?: unknown }[] };
  const events = calls.events.map((e) => {
    const usage = usageOf(e);
    return usage ? { ...e, usage: priced(usage, prices) } : e;
  });
  const usage = usageTotal(events.map(usageOf));
  return { ...calls, events, ...(usage && { usage }) };
}

/**
 * Why the thread cannot resume on the agent served now (an edit changed where it stands), or
 * null. A thread whose last turn ran on this very graph needs no look at its memory.
 */
async function staleness(ctx: ServerContext, agent: Agent, thread: ThreadInfo): Promise<string | null> {
  if (thread.done || thread.version === 0 || thread.graphHash === agent.graphHash) return null;
  const { memory } = await ctx.store.load(thread.id);
  return memory === null ? null : agent.staleProblem(memory);
}

const ForkBody = z.object({ turn: z.number().int().min(0), id: z.string().optional() });
const MigrateBody = z.object({ node: z.string().min(1).meta({ description: "the node's name in the graph" }) });
const TitleBody = z.object({ title: z.string().nullable() });
const VariablesBody = z.object({
  frame: z.number().int().min(0).meta({
    description: "the frame of the memory's stack: 0 is main (the globals), the last is where the conversation stands",
  }),
  set: z
    .record(z.string(), z.unknown())
    .meta({ description: "each variable's new value (JSON); the frame must have the variable" }),
});

export function threadsRoutes(ctx: ServerContext): Hono {
  const { store } = ctx;
  const app = new Hono();
  /** The build the request takes as it starts, and a thread of its agent. */
  const served = () => {
    const build = ctx.served();
    return {
      agent: build.agent,
      known: (id: string) => knownThread(store, build.name, id, ctx.agents.names),
      name: build.name,
    };
  };

  // `?stale=1`: each thread says whether it can resume on the agent served now (a look at the
  // memory of those whose last turn ran on another build).
  app.get("/api/threads", async (c) => {
    const { agent, name } = served();
    const limit = integerParam(c.req.query("limit"), "limit", 100);
    const threads = await store.listThreads({ limit: Math.min(limit, 1000), agent: name });
    if (c.req.query("stale") !== "1") return c.json({ threads });
    return c.json({
      threads: await Promise.all(threads.map(async (t) => ({ ...t, stale: await staleness(ctx, agent, t) }))),
    });
  });

  app.get("/api/threads/:id", async (c) => {
    const id = threadIdOf(c.req.param("id"));
    const { agent, known } = served();
    const thread = await known(id);
    const turns = (await store.turns(id)).map((t) => turnJson(t, ctx.prices));
    const usage = usageTotal(turns.map((t) => t.usage));
    return c.json({
      id,
      thread: {
        ...thread,
        stale: await staleness(ctx, agent, thread),
        ...(usage && { usage }),
        settings: settingsFrom(id, await store.threadSettings(id)) ?? null,
      },
      turns,
    });
  });

  app.get("/api/threads/:id/memory", async (c) => {
    const id = threadIdOf(c.req.param("id"));
    const thread = await served().known(id);
    const turn = turnParam(c.req.query("turn"), "turn", id, 0, thread.version);
    return c.json({ turn, memory: await store.memoryAt(id, turn) });
  });

  app.patch("/api/threads/:id", async (c) => {
    const id = threadIdOf(c.req.param("id"));
    const body = await jsonBody(c, TitleBody);
    await served().known(id);
    return c.json({ thread: await store.setTitle(id, body.title) });
  });

  // What a turn sent and got back (the prompts, the choices put to the model, the tool calls, the
  // prints), rebuilt by replaying it from its recording (prompts are not stored): turn-calls.ts.
  app.get("/api/threads/:id/turns/:seq/calls", async (c) => {
    const id = threadIdOf(c.req.param("id"));
    const { agent, known } = served();
    const thread = await known(id);
    const seq = turnParam(c.req.param("seq"), "seq", id, 1, thread.version);
    try {
      return c.json(pricedCalls(await ctx.turnCalls.json(thread, seq, agent), ctx.prices));
    } catch (err) {
      if (err instanceof HttpError && err.extra.retryAfter !== undefined)
        c.header("Retry-After", String(err.extra.retryAfter));
      throw err;
    }
  });

  app.delete("/api/threads/:id", async (c) => {
    const id = threadIdOf(c.req.param("id"));
    await served().known(id);
    if (!(await store.deleteThread(id))) throw new HttpError(404, "unknown_thread", `no thread '${id}'`);
    return c.body(null, 204);
  });

  app.post("/api/threads/:id/fork", async (c) => {
    const id = threadIdOf(c.req.param("id"));
    const body = await jsonBody(c, ForkBody);
    const newId = body.id === undefined ? undefined : threadIdOf(body.id, "id");
    const source = await served().known(id);
    if (body.turn > source.version)
      throw new HttpError(400, "bad_request", `turn: thread ${id} has turns 0 to ${source.version}`, "turn");
    return c.json({ thread: await store.fork(id, body.turn, newId) }, 201);
  });

  // A thread that cannot resume on the agent served now (edited where it stands) moves to one of its nodes.
  // Variables of a frame set by hand, as a turn without message (fork first to try a change beside the original).
  app.post("/api/threads/:id/variables", async (c) => {
    const id = threadIdOf(c.req.param("id"));
    const body = await jsonBody(c, VariablesBody);
    const { agent, known } = served();
    await known(id);
    const { turn } = await editThreadVariables(store, agent, id, body.frame, body.set);
    return c.json({ thread: await store.thread(id), turn: turnJson(turn, ctx.prices) });
  });

  app.post("/api/threads/:id/migrate", async (c) => {
    const id = threadIdOf(c.req.param("id"));
    const body = await jsonBody(c, MigrateBody);
    const { agent, known } = served();
    await known(id);
    const { turn } = await migrateThread(store, agent, id, body.node);
    return c.json({ thread: await store.thread(id), turn: turnJson(turn, ctx.prices) });
  });

  return app;
}

/** A thread, and the turn that records a change made to it by hand. */
const ChangedThread = z.object({ thread: ApiThread, turn: ApiTurn });

export const threadsApi: ApiPaths = {
  "/api/threads": {
    get: {
      summary: "The threads, the most recently active first",
      parameters: [
        { name: "limit", in: "query", schema: z.int().min(0).max(1000).default(100) },
        {
          name: "stale",
          in: "query",
          description: "1: each thread says whether it can resume on the agent served now (`stale`)",
          schema: z.enum(["1"]),
        },
      ],
      responses: {
        200: answer("the threads", z.object({ threads: z.array(ApiThread) })),
        400: error("a bad limit"),
      },
    },
  },
  "/api/threads/{id}": {
    get: {
      summary: "A thread and its turns",
      parameters: [threadIdParam],
      responses: {
        200: answer(
          "the thread",
          z.object({
            id: z.string(),
            thread: z.intersection(
              ApiThread,
              z.object({ usage: ApiUsage.optional().meta({ description: "the sum of its turns' usage" }) }),
            ),
            turns: z.array(ApiTurn),
          }),
        ),
        404: error("no such thread"),
      },
    },
    patch: {
      summary: "Name a thread (null: called by its first user message again)",
      parameters: [threadIdParam],
      // The store keeps at most 200 characters of a title.
      requestBody: body(TitleBody.extend({ title: z.string().max(200).nullable() })),
      responses: {
        200: answer("the thread", z.object({ thread: ApiThread })),
        400: error("a bad title"),
        404: error("no such thread"),
      },
    },
    delete: {
      summary: "Delete a thread and everything stored of it",
      parameters: [threadIdParam],
      responses: { 204: { description: "deleted" }, 404: error("no such thread") },
    },
  },
  "/api/threads/{id}/memory": {
    get: {
      summary: "The thread's memory as it was after a turn",
      parameters: [
        threadIdParam,
        { name: "turn", in: "query", schema: z.int().min(0), description: "default: the last turn" },
      ],
      responses: {
        200: answer(
          "the memory (null before the first turn)",
          z.object({ turn: z.int(), memory: z.object({}).nullable() }),
        ),
        400: error("no such turn, or pruned"),
        404: error("no such thread"),
      },
    },
  },
  "/api/threads/{id}/turns/{seq}/calls": {
    get: {
      summary:
        "What a turn sent to the model and got back (prompts, choices, tool calls, hooks, prints), rebuilt by replaying it from its recording: no model, tool or hook runs; replayed once per turn and build, then kept",
      parameters: [threadIdParam, { name: "seq", in: "path", required: true, schema: z.int().min(1) }],
      responses: {
        200: answer(
          "the turn's events that made calls, prompts included",
          z.object({
            seq: z.int(),
            user: z.string().nullable(),
            steps: z.int().meta({ description: "the turn's trace events, those not given here included" }),
            events: z.array(z.looseObject({ usage: ApiUsage.optional() })).meta({
              description: "each with the `usage` of its model calls (and its `model`), where reported",
            }),
            usage: ApiUsage.optional().meta({ description: "the turn's: the sum of its events'" }),
            stopped: z.string().nullable().meta({
              description:
                "why the replay stopped short (the agent changed since, its deadline, a turn stored before calls from code were recorded), or null",
            }),
          }),
        ),
        400: error("no such turn"),
        404: error("no such thread"),
        503: error("`replays_busy`: as many turns as the queue holds wait to be replayed; ask again after Retry-After"),
      },
    },
  },
  "/api/threads/{id}/fork": {
    post: {
      summary: "A new thread with the first `turn` turns of this one",
      parameters: [threadIdParam],
      requestBody: body(ForkBody.extend({ id: ThreadId.optional() })),
      responses: {
        201: answer("the new thread", z.object({ thread: ApiThread })),
        400: error("a bad turn"),
        404: error("no such thread"),
      },
    },
  },
  "/api/threads/{id}/variables": {
    post: {
      summary:
        "Set variables of one frame of a thread's memory to new values (fork it at a turn first to try a change beside the original); recorded as a turn without message or reply",
      parameters: [threadIdParam],
      requestBody: body(VariablesBody),
      responses: {
        200: answer("the thread, and the turn that records the change (no message, no reply)", ChangedThread),
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
      parameters: [threadIdParam],
      requestBody: body(MigrateBody),
      responses: {
        200: answer("the thread, and the turn that records the move (no message, no reply)", ChangedThread),
        404: error("no such thread"),
        409: error("the thread is busy"),
        422: error("bad_migration: the node cannot take the conversation (the message says why)"),
      },
    },
  },
};
