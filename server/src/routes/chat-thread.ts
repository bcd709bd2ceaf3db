/**
 * What a chat page asks of its thread besides sending to it: `GET /api/chat/:id/messages`, the
 * thread as the AI SDK's `UIMessage[]` (a page loaded again restores its chat from it), and
 * `POST /api/chat/:id/stop`, which stops the reply being written (a client that only closes its
 * request leaves the run going, since a disconnect must not cancel a resumable run).
 */
import { Hono } from "hono";
import type { ServerContext } from "../context.js";
import { threadIdOf } from "../http/request.js";
import { ownThread } from "../own-thread.js";
import { uiMessagesOf, type InFlight } from "../protocols/ui-messages.js";
import type { RunEvent } from "@autograms/store";
import { turnJson } from "./threads.js";
import { isAnswering } from "../runs/run-status.js";

/** The user message of the thread's run in progress, if its turn is not committed yet. */
async function inFlight(ctx: ServerContext, threadId: string, version: number): Promise<InFlight | null> {
  const live = ctx.runs.liveOn(threadId);
  const start = live?.events[0]?.event as Extract<RunEvent, { type: "run-start" }> | undefined;
  const run = start
    ? { turn: start.turn, messageId: start.messageId, user: start.user, ended: live!.ended }
    : await ctx.store.latestRun(threadId).then((r) => r && { ...r, ended: !isAnswering(r) });
  if (!run || run.ended || run.user === null || run.turn <= version) return null;
  return { turn: run.turn, messageId: run.messageId, user: run.user };
}

export function chatThreadRoutes(ctx: ServerContext): Hono {
  const app = new Hono();

  // A chat that has sent nothing yet has no thread: its messages are none.
  app.get("/api/chat/:id/messages", async (c) => {
    const id = threadIdOf(c.req.param("id"));
    const info = await ownThread(ctx.store, ctx.served().name, id);
    if (!info) return c.json([]);
    return c.json(uiMessagesOf(await ctx.store.turns(id), await inFlight(ctx, id, info.version)));
  });

  app.post("/api/chat/:id/stop", async (c) => {
    const id = threadIdOf(c.req.param("id"));
    const build = ctx.served();
    if (!(await ownThread(ctx.store, build.name, id))) return c.body(null, 204);
    const stopped = await ctx.runs.stopThread(id, build);
    if (!stopped) return c.body(null, 204);
    return c.json({ runId: stopped.runId, turn: turnJson(stopped.turn, ctx.prices) });
  });

  return app;
}
