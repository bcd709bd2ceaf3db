/**
 * AG-UI (https://docs.ag-ui.com): `POST /ag-ui` takes a RunAgentInput and answers with a stream of
 * AG-UI events, a translation of the run's own event stream (run-events.ts):
 *
 *   run-start   -> RUN_STARTED, STATE_SNAPSHOT (the agent's variables before the turn)
 *   step        -> STEP_STARTED on entering a node, STATE_DELTA (what it wrote, as JSON Patch),
 *                  STEP_FINISHED as it is left (its transition, return or quit)
 *   text-delta  -> TEXT_MESSAGE_START (first), TEXT_MESSAGE_CONTENT, inside the node's step
 *   text-reset  -> TEXT_MESSAGE_END and a CUSTOM `autograms.text-reset` naming the withdrawn message
 *   run-finish  -> STATE_DELTA (to the committed variables), RUN_FINISHED
 *   run-error   -> RUN_ERROR
 *
 * The thread is the server's: `threadId` names it, the last message (a user message) is the turn,
 * and the messages before it, the client's `state`, `tools` and `context` are not trusted (the
 * conversation, its memory and its tools live on the server).
 */
import { EventType, type Event as AgUiEvent, type JsonPatchOperation } from "@ag-ui/core";
import { RunAgentInputSchema } from "@ag-ui/core/schemas";
import { Hono } from "hono";
import { replyOf, type JsonValue, type Memory, type TraceEvent } from "@autograms/runtime";
import type { ServerContext } from "../context.js";
import { badRequest, toHttpError } from "../http/errors.js";
import { jsonBody, threadIdOf } from "../http/request.js";
import { sseResponse, type SseFrame } from "../http/sse.js";
import { RUN_STREAM_HEADERS } from "../routes/runs.js";
import { isRunEnd, type RunEvent } from "../run-events.js";
import { eventsOf } from "../runs/run-source.js";

export type { AgUiEvent };

/** The variables AG-UI shares as state. */
export type Variables = Record<string, JsonValue>;

/**
 * The agent's variables as AG-UI state: every variable of the conversation's stack, as its code
 * sees them where the conversation stands: the global scope (class fields, `main()`'s own
 * variables), then each function running, an inner frame's variable winning over an outer one of
 * the same name (a `global_function` hands its variables to its caller on return, so they show
 * where they will stay). Names starting with `_` are left out: the runtime's automatic variables
 * and the compiler's temporaries (loop counters, hoisted values) are the graph's machinery.
 */
export function agentVariables(memory: Memory | null, globals: Variables): Variables {
  const out: Variables = {};
  for (const vars of memory ? memory.stack.map((f) => f.vars) : [globals]) {
    for (const [name, value] of Object.entries(vars)) if (!name.startsWith("_")) out[name] = value;
  }
  return out;
}

const pointer = (name: string) => `/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`;

/** The JSON Patch (RFC 6902) that turns one set of variables into another, one operation per variable. */
export function variablesPatch(from: Variables, to: Variables): JsonPatchOperation[] {
  const ops: JsonPatchOperation[] = [];
  for (const [name, value] of Object.entries(to)) {
    if (!Object.hasOwn(from, name)) ops.push({ op: "add", path: pointer(name), value });
    else if (JSON.stringify(from[name]) !== JSON.stringify(value)) ops.push({ op: "replace", path: pointer(name), value });
  }
  for (const name of Object.keys(from)) if (!Object.hasOwn(to, name)) ops.push({ op: "remove", path: pointer(name) });
  return ops;
}

/**
 * Turns one run's events into AG-UI events, keeping what the protocol needs between them: the
 * open step and text message, and the state the client holds.
 */
export class AgUiTranslator {
  private state: Variables;
  private step: string | null = null;
  /** The id of the text message open, if one is. */
  private message: string | null = null;
  private messages = 0;

  constructor(
    private readonly ids: { threadId: string; runId: string },
    /** The agent's variables before the turn (what STATE_SNAPSHOT sends). */
    variables: Variables,
  ) {
    this.state = structuredClone(variables);
  }

  /** `finalVariables` (run-finish only): the variables the committed turn left, which the last delta reaches. */
  translate(e: RunEvent, finalVariables?: Variables): AgUiEvent[] {
    const out: AgUiEvent[] = [];
    switch (e.type) {
      case "run-start":
        out.push({ type: EventType.RUN_STARTED, ...this.ids }, { type: EventType.STATE_SNAPSHOT, snapshot: structuredClone(this.state) });
        break;
      case "text-delta":
        this.enter(e.node, out);
        if (!this.message) {
          this.message = `${this.ids.runId}-m${++this.messages}`;
          out.push({ type: EventType.TEXT_MESSAGE_START, messageId: this.message, role: "assistant" });
        }
        if (e.delta !== "") out.push({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: this.message, delta: e.delta });
        break;
      case "text-reset":
        if (this.message) {
          const withdrawn = this.message;
          this.endMessage(out);
          out.push({ type: EventType.CUSTOM, name: "autograms.text-reset", value: { messageId: withdrawn, node: e.node } });
        }
        break;
      case "step":
        this.stepEvent(e.event as unknown as TraceEvent, out);
        break;
      case "run-finish":
        this.leave(out);
        if (finalVariables) this.moveTo(finalVariables, out);
        out.push({
          type: EventType.RUN_FINISHED, ...this.ids,
          result: { turn: e.turn, reply: e.reply, done: e.done }, outcome: { type: "success" },
        });
        break;
      case "run-error":
        this.leave(out);
        out.push({ type: EventType.RUN_ERROR, code: e.code, message: e.message });
        break;
    }
    return out;
  }

  private stepEvent(event: TraceEvent, out: AgUiEvent[]): void {
    this.enter(event.node, out);
    // A step writes the innermost frame, whose variables win in the state. (A frame's own
    // variables leave the state when it returns; the last delta of the run catches that up.)
    const next = { ...this.state };
    for (const c of event.changes) if (!c.name.startsWith("_")) next[c.name] = c.after;
    this.moveTo(next, out);
    // The reply's text comes in text-delta events only (before this step when the model streams,
    // whole after it when not): a step that ends with the reply ends the text streamed so far.
    if (replyOf(event) !== undefined) this.endMessage(out);
    // A node's visit ends as it is left; its other events (the user message it took, its setup) stay in its step.
    if (event.kind === "transition" || event.kind === "return" || event.kind === "quit") this.leave(out);
  }

  /** Moves the client's state to `next`, sending what changed. */
  private moveTo(next: Variables, out: AgUiEvent[]): void {
    const ops = variablesPatch(this.state, next);
    if (ops.length === 0) return;
    this.state = structuredClone(next);
    out.push({ type: EventType.STATE_DELTA, delta: ops });
  }

  private enter(node: string, out: AgUiEvent[]): void {
    if (this.step === node) return;
    this.leave(out);
    this.step = node;
    out.push({ type: EventType.STEP_STARTED, stepName: node });
  }

  private endMessage(out: AgUiEvent[]): void {
    if (!this.message) return;
    out.push({ type: EventType.TEXT_MESSAGE_END, messageId: this.message });
    this.message = null;
  }

  private leave(out: AgUiEvent[]): void {
    this.endMessage(out);
    if (this.step === null) return;
    out.push({ type: EventType.STEP_FINISHED, stepName: this.step });
    this.step = null;
  }
}

/** The user's turn: the text of the last message, which must be the user's; no messages at all is the agent's opening turn. */
function turnOf(messages: { id: string; role: string; content?: unknown }[], maxChars: number): { message: string | null; messageId?: string } {
  const last = messages.at(-1);
  if (!last) return { message: null };
  const at = `messages[${messages.length - 1}]`;
  if (last.role !== "user") throw badRequest(`${at}.role: the last message is the turn, so it must be the user's (got "${last.role}")`, `${at}.role`);
  const content = last.content;
  const text = typeof content === "string" ? content
    : Array.isArray(content) && content.every((p: { type?: string }) => p.type === "text") ? content.map((p: { text: string }) => p.text).join("")
    : null;
  if (text === null) throw badRequest(`${at}.content: only text can be a turn of this agent`, `${at}.content`);
  if (text.trim() === "") throw badRequest(`${at}.content: empty; send text, or no messages for the agent's opening turn`, `${at}.content`);
  if (text.length > maxChars) throw badRequest(`${at}.content: longer than ${maxChars} characters`, `${at}.content`);
  return { message: text, messageId: last.id };
}

/** The variables at the thread's head; the agent's initial ones for a thread not made yet. */
async function variablesOf(ctx: ServerContext, threadId: string): Promise<Variables> {
  const globals = (ctx.agent.graph.globals ?? {}) as Variables;
  if (!(await ctx.store.thread(threadId))) return agentVariables(null, globals);
  return agentVariables((await ctx.store.load(threadId)).memory, globals);
}

/** `POST /ag-ui`. Refusals (bad input, a busy or ended thread) are the API's JSON errors, sent before any event. */
export function agUiRoutes(ctx: ServerContext): Hono {
  const app = new Hono();
  app.post("/ag-ui", async (c) => {
    const input = await jsonBody(c, RunAgentInputSchema);
    const threadId = threadIdOf(input.threadId, "threadId");
    const turn = turnOf(input.messages, ctx.limits.maxMessageChars);
    const before = await variablesOf(ctx, threadId);
    const source = await ctx.runs.start(threadId, turn.message, turn.messageId);
    const translator = new AgUiTranslator({ threadId, runId: input.runId }, before);
    return sseResponse(async function* (signal): AsyncGenerator<SseFrame> {
      let id = 0;
      const frames = (events: AgUiEvent[]) => events.map((e) => ({ id: ++id, data: JSON.stringify(e) }));
      try {
        for await (const { event } of eventsOf(ctx, source, 0, signal)) {
          yield* frames(translator.translate(event, event.type === "run-finish" ? await variablesOf(ctx, threadId) : undefined));
          if (isRunEnd(event)) return;
        }
      } catch (err) {
        const { code, message } = toHttpError(err);
        yield* frames(translator.translate({ type: "run-error", code, message }));
      }
    }, RUN_STREAM_HEADERS);
  });
  return app;
}
