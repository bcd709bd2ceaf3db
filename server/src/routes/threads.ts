/** The threads of the store: list, show (turns with what each changed and the nodes it went through), memory at a turn, delete, fork, migrate. */
import { Hono } from "hono";
import { z } from "zod";
import { editThreadVariables, migrateThread, type ThreadInfo, type TurnRecord } from "@autograms/store";
import type { Agent } from "@autograms/runtime";
import type { ServerContext } from "../context.js";
import { HttpError } from "../http/errors.js";
import { integerParam, jsonBody, threadIdOf, turnParam } from "../http/request.js";
import { knownThread } from "../own-thread.js";
import type { Prices } from "../usage/prices.js";
import { priced, usageOf, usageTotal } from "../usage/totals.js";

/** A turn as the API shows it: `threads show --json`'s `{ user, reply }` and more. */
export function turnJson(t: TurnRecord, prices: Prices | undefined) {
  const usage = usageTotal(t.trace.map(usageOf), prices);
  const toolCalls = toolCallsOf(t);
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
const MigrateBody = z.object({ node: z.string().min(1) });
const TitleBody = z.object({ title: z.string().nullable() });
const VariablesBody = z.object({ frame: z.number().int().min(0), set: z.record(z.string(), z.unknown()) });

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
      thread: { ...thread, stale: await staleness(ctx, agent, thread), ...(usage && { usage }) },
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
