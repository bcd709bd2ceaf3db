/**
 * A run's step events with their JSON text made once: where a turn is played (a worker thread)
 * each step is serialized as it happens, and that text is what the run stores and what every
 * protocol's frame carries, so the server's thread neither reads a step back into objects it does
 * not need nor serializes it again per write and per client. A step made from its text alone
 * (`stepFromText`) parses it the first time its `event` is read (AG-UI reads it whole).
 *
 * The text is kept beside the event object, not in it: the event's own fields, its JSON, its
 * clone and its comparison stay those of `{ type: "step", event }`. It is exactly what
 * JSON.stringify makes of the event, so a text passed through gives the same bytes as the object
 * serialized again; the store is given it as it is (run-event-json.ts).
 */
import type { StoredTraceEvent } from "@autograms/runtime";
import type { RunEvent } from "./run-events.js";

export type StepEvent = Extract<RunEvent, { type: "step" }>;

/** How a step event's JSON begins: its event's own text follows, then the closing brace. */
const STEP_PREFIX = '{"type":"step","event":';

/**
 * A step event with its text. Its `event` is an own enumerable property like any step's (a getter
 * shared by all, which parses the text the first time it is read), and its text is in private
 * fields: the step's JSON, its clone and its comparison are those of `{ type: "step", event }`.
 * (A WeakMap from plain steps to their texts costs more than parsing them.)
 */
class TextStep {
  static readonly #eventProperty: PropertyDescriptor = {
    get(this: TextStep): StoredTraceEvent {
      this.#event ??= JSON.parse(this.#json) as StoredTraceEvent;
      return this.#event;
    },
    enumerable: true,
  };

  readonly type = "step";
  readonly #json: string;
  readonly #kind: string;
  #event: StoredTraceEvent | undefined;

  constructor(json: string, kind: string, event?: StoredTraceEvent) {
    this.#json = json;
    this.#kind = kind;
    this.#event = event;
    Object.defineProperty(this, "event", TextStep.#eventProperty);
  }

  static json(step: unknown): string | undefined {
    return typeof step === "object" && step !== null && #json in step ? step.#json : undefined;
  }

  static kind(step: StepEvent): string {
    return #kind in step ? step.#kind : step.event.kind;
  }
}

/** A step known by its JSON text and its kind, as a worker sends it: its event is parsed when first read. */
export function stepFromText(json: string, kind: string): StepEvent {
  return new TextStep(json, kind) as unknown as StepEvent;
}

/** A step whose event and its JSON text (JSON.stringify of it) are both at hand. */
export function stepWithText(event: StoredTraceEvent, json: string): StepEvent {
  return new TextStep(json, event.kind, event) as unknown as StepEvent;
}

/** The step's kind, without reading its text. */
export function stepKind(step: StepEvent): string {
  return TextStep.kind(step);
}

/** The step's event as JSON: its text when known, else serialized now. */
export function stepJson(step: StepEvent): string {
  return TextStep.json(step) ?? JSON.stringify(step.event);
}

/** A value's JSON text when it is a step that carries one (the same bytes JSON.stringify makes). */
export function knownJson(value: unknown): string | undefined {
  const json = TextStep.json(value);
  return json === undefined ? undefined : `${STEP_PREFIX}${json}}`;
}
