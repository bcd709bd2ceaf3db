/**
 * AG-UI (https://docs.ag-ui.com): the run's own event stream (run-events.ts) as AG-UI events, which
 * `POST /ag-ui` sends (routes/ag-ui.ts):
 *
 *   run-start   -> RUN_STARTED, STATE_SNAPSHOT (the agent's variables before the turn)
 *   step        -> STEP_STARTED on entering a node, STATE_DELTA (what it wrote, as JSON Patch),
 *                  STEP_FINISHED as it is left (its transition, return or quit)
 *   text-delta  -> TEXT_MESSAGE_START (first), TEXT_MESSAGE_CONTENT, inside the node's step
 *   text-reset  -> TEXT_MESSAGE_END and a CUSTOM `autograms.text-reset` naming the withdrawn message
 *   run-finish  -> STATE_DELTA (to the committed variables), RUN_FINISHED
 *   run-error   -> RUN_ERROR
 *
 * A pure translation: given the variables before the turn and after it, the same events give the
 * same AG-UI events (message ids are made from the server's run id), so they can be made again
 * from a run's first event for a client that reconnects.
 */
import { EventType, type Event as AgUiEvent, type JsonPatchOperation } from "@ag-ui/core";
import { replyOf, type JsonValue, type Memory, type TraceEvent } from "@autograms/runtime";
import type { RunEvent } from "../runs/run-events.js";

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
    else if (JSON.stringify(from[name]) !== JSON.stringify(value))
      ops.push({ op: "replace", path: pointer(name), value });
  }
  for (const name of Object.keys(from)) if (!Object.hasOwn(to, name)) ops.push({ op: "remove", path: pointer(name) });
  return ops;
}

/**
 * Turns one run's events into AG-UI events, keeping what the protocol needs between them: the
 * open step and text message, and the state the client holds.
 */
export class AgUiTranslator {
  /** The variables the client holds: the snapshot and the deltas sent so far. */
  private state: Variables = {};
  private step: string | null = null;
  private message: string | null = null;
  private messages = 0;
  /** The AG-UI run id, and the server's, which message ids are made from (both known at run-start). */
  private run = { agUi: "", server: "" };

  /** `runId`: the AG-UI run id that RUN_STARTED and RUN_FINISHED name (the client's); by default the server's. */
  constructor(private readonly ids: { threadId: string; runId?: string }) {}

  /**
   * `variables`: at run-start, the agent's variables before the turn (what STATE_SNAPSHOT sends);
   * at run-finish, those the committed turn left, which the last delta reaches.
   */
  translate(e: RunEvent, variables?: Variables): AgUiEvent[] {
    const out: AgUiEvent[] = [];
    const { threadId } = this.ids;
    switch (e.type) {
      case "run-start":
        this.state = structuredClone(variables ?? {});
        this.run = { agUi: this.ids.runId ?? e.runId, server: e.runId };
        out.push(
          { type: EventType.RUN_STARTED, threadId, runId: this.run.agUi },
          { type: EventType.STATE_SNAPSHOT, snapshot: structuredClone(this.state) },
        );
        break;
      case "text-delta":
        this.enter(e.node, out);
        if (!this.message) {
          this.message = `${this.run.server}-m${++this.messages}`;
          out.push({ type: EventType.TEXT_MESSAGE_START, messageId: this.message, role: "assistant" });
        }
        if (e.delta !== "") out.push({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: this.message, delta: e.delta });
        break;
      case "text-reset":
        if (this.message) {
          const withdrawn = this.message;
          this.endMessage(out);
          out.push({
            type: EventType.CUSTOM,
            name: "autograms.text-reset",
            value: { messageId: withdrawn, node: e.node },
          });
        }
        break;
      case "step":
        this.stepEvent(e.event as unknown as TraceEvent, out);
        break;
      case "run-finish":
        this.leave(out);
        if (variables) this.moveTo(variables, out);
        out.push({
          type: EventType.RUN_FINISHED,
          threadId,
          runId: this.run.agUi,
          result: { turn: e.turn, reply: e.reply, done: e.done },
          outcome: { type: "success" },
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
