/**
 * What an AG-UI client that joins a run part way needs before the rest of it. AG-UI clients
 * (`@ag-ui/client`'s `connectAgent`, `runAgent`) check a stream as a whole: it must start with
 * RUN_STARTED, text must come inside a TEXT_MESSAGE_START, a STEP_FINISHED must close an open
 * step. A resumed stream (`Last-Event-ID`) is therefore preceded by the run as it stands at that
 * point, made from the events the client already had: its RUN_STARTED, a STATE_SNAPSHOT of the
 * state they left, and the step and the text message still open. A client that kept the message
 * goes on appending to it (same id); one that did not starts it empty and gets the rest.
 */
import { EventType } from "@ag-ui/core";
import type { AgUiEvent, Variables } from "./ag-ui.js";

export class AgUiRejoin {
  private started: AgUiEvent | null = null;
  private state: Variables = {};
  private step: string | null = null;
  private message: string | null = null;

  /** Takes in an event the client already had. */
  skip(e: AgUiEvent): void {
    if (e.type === EventType.RUN_STARTED) this.started = e;
    else if (e.type === EventType.STATE_SNAPSHOT) this.state = structuredClone(e.snapshot as Variables);
    else if (e.type === EventType.STEP_STARTED) this.step = e.stepName;
    else if (e.type === EventType.STEP_FINISHED) this.step = null;
    else if (e.type === EventType.TEXT_MESSAGE_START) this.message = e.messageId;
    else if (e.type === EventType.TEXT_MESSAGE_END) this.message = null;
    else if (e.type === EventType.STATE_DELTA) {
      // The translation's patches name top-level variables only (variablesPatch).
      for (const op of e.delta as { op: string; path: string; value?: Variables[string] }[]) {
        const name = op.path.slice(1).replace(/~1/g, "/").replace(/~0/g, "~");
        if (op.op === "remove") delete this.state[name];
        else this.state[name] = structuredClone(op.value!);
      }
    }
  }

  /** The events that set a new client where the skipped ones left the run (none before RUN_STARTED was skipped). */
  events(): AgUiEvent[] {
    if (!this.started) return [];
    return [
      this.started,
      { type: EventType.STATE_SNAPSHOT, snapshot: structuredClone(this.state) },
      ...(this.step === null ? [] : [{ type: EventType.STEP_STARTED, stepName: this.step } as AgUiEvent]),
      ...(this.message === null
        ? []
        : [{ type: EventType.TEXT_MESSAGE_START, messageId: this.message, role: "assistant" } as AgUiEvent]),
    ];
  }
}
