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
import type { Context } from "hono";
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import type { JsonValue, Memory } from "@autograms/runtime";
import { replyOf, type TraceEvent } from "@autograms/runtime";
import type { NumberedRunEvent, RunEvent } from "../run-events.js";

export type { AgUiEvent };

/** The variables AG-UI shares as state. */
export type Variables = Record<string, JsonValue>;

/**
 * The agent's variables as AG-UI state: the conversation's global scope (the agent's class
 * fields and `main()`'s own variables). Names starting with `_` are left out: the runtime's
 * automatic variables and the compiler's temporaries (loop counters, hoisted values) are the
 * machinery of the graph, not the agent's state.
 */
export function agentVariables(memory: Memory | null, globals: Variables): Variables {
  const vars = memory ? (memory.stack[0]?.vars ?? {}) : globals;
  const out: Variables = {};
  for (const [name, value] of Object.entries(vars)) if (!name.startsWith("_")) out[name] = value;
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
  private message: { id: string; node: string } | null = null;
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
          this.message = { id: `${this.ids.runId}-m${++this.messages}`, node: e.node };
          out.push({ type: EventType.TEXT_MESSAGE_START, messageId: this.message.id, role: "assistant" });
        }
        if (e.delta !== "") out.push({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: this.message.id, delta: e.delta });
        break;
      case "text-reset":
        if (this.message) {
          const withdrawn = this.message.id;
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
    // Only a step of `main` writes the global scope (a function's writes stay in its own frame).
    if (event.stack.length === 1) {
      const next = { ...this.state };
      for (const c of event.changes) if (!c.name.startsWith("_")) next[c.name] = c.after;
      this.moveTo(next, out);
    }
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
    out.push({ type: EventType.TEXT_MESSAGE_END, messageId: this.message.id });
    this.message = null;
  }

  private leave(out: AgUiEvent[]): void {
    this.endMessage(out);
    if (this.step === null) return;
    out.push({ type: EventType.STEP_FINISHED, stepName: this.step });
    this.step = null;
  }
}

/** What the AG-UI route needs of the server: running a turn, and the variables of a thread. */
export interface AgUiBackend {
  /** Runs one turn on the thread, yielding the run's events until run-finish or run-error. */
  run(request: { threadId: string; message: string | null; messageId?: string; signal: AbortSignal }): AsyncIterable<NumberedRunEvent>;
  /** The agent's variables at the thread's head (see agentVariables); the initial ones for a new thread. */
  variables(threadId: string): Promise<Variables>;
}

type Issue = { path: PropertyKey[]; message: string };
/** `messages[1].role`: how the API names a part of a request. */
const fieldOf = (path: readonly PropertyKey[]) => path.map((k, i) => (typeof k === "number" ? `[${k}]` : `${i ? "." : ""}${String(k)}`)).join("");

function badRequest(c: Context, code: string, message: string, field?: string) {
  return c.json({ error: { code, message, ...(field !== undefined && { field }) } }, 400);
}

/** The user's turn: the text of the last message, which must be the user's; no messages at all is the agent's opening turn. */
function turnOf(messages: { id: string; role: string; content?: unknown }[]): { message: string | null; messageId?: string } | Issue {
  const last = messages.at(-1);
  if (!last) return { message: null };
  const at = ["messages", messages.length - 1];
  if (last.role !== "user") return { path: [...at, "role"], message: `the last message is the turn, so it must be the user's (got role "${last.role}")` };
  const content = last.content;
  if (typeof content === "string") return { message: content, messageId: last.id };
  if (Array.isArray(content) && content.every((p: { type?: string }) => p.type === "text")) {
    return { message: content.map((p: { text: string }) => p.text).join(""), messageId: last.id };
  }
  return { path: [...at, "content"], message: "only text parts can be a turn of this agent" };
}

/** The `/ag-ui` route (mount it with `app.route("/ag-ui", agUiRoute(backend))`). */
export function agUiRoute(backend: AgUiBackend): Hono {
  const app = new Hono();
  app.post("/", async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return badRequest(c, "bad_json", "the body must be a JSON RunAgentInput");
    }
    const parsed = RunAgentInputSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = fieldOf(issue.path);
      return badRequest(c, "bad_request", `RunAgentInput${field ? `.${field}` : ""}: ${issue.message}`, field || undefined);
    }
    const input = parsed.data;
    const turn = turnOf(input.messages);
    if ("path" in turn) return badRequest(c, "bad_request", `RunAgentInput.${fieldOf(turn.path)}: ${turn.message}`, fieldOf(turn.path));
    const ids = { threadId: input.threadId, runId: input.runId };
    return streamSSE(c, async (sse) => {
      const stop = new AbortController();
      sse.onAbort(() => stop.abort());
      const send = async (events: AgUiEvent[]) => {
        for (const e of events) await sse.writeSSE({ data: JSON.stringify(e) });
      };
      let translator: AgUiTranslator | undefined;
      try {
        translator = new AgUiTranslator(ids, await backend.variables(input.threadId));
        for await (const { event } of backend.run({ threadId: input.threadId, ...turn, signal: stop.signal })) {
          const final = event.type === "run-finish" ? await backend.variables(input.threadId) : undefined;
          await send(translator.translate(event, final));
          if (event.type === "run-finish" || event.type === "run-error") break;
        }
      } catch (err) {
        const { code, message } = err as { code?: unknown; message?: unknown };
        const failed = { type: "run-error", code: typeof code === "string" ? code : "internal_error", message: String(message ?? err) } as const;
        await send(translator ? translator.translate(failed) : [{ type: EventType.RUN_ERROR, code: failed.code, message: failed.message }]);
      }
    });
  });
  return app;
}
