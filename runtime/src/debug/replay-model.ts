/**
 * A model that answers from a recorded trace: each complete() gets the next recorded raw answer,
 * each choose() the next recorded choice, in the order the run made them. Every request is checked
 * against the recording (the node that asks, and its messages or prompt and choices), so a replay
 * that has gone another way stops at the first difference instead of answering the wrong question.
 */
import type {
  ChatMessage,
  ChoiceRequest,
  CompletionPurpose,
  CompletionRequest,
  TokenUsage,
  ToolCallingModel,
  ToolCompletion,
  ToolCompletionRequest,
} from "../model/types.js";
import type { Loc } from "@autograms/graph";
import type { TraceEvent } from "../trace/events.js";
import { traceEvents } from "./recording.js";
import { cutAfter, cutBefore } from "../text/cut.js";

/**
 * One model call of the recorded run. `usage` is on the last call of each event that recorded
 * tokens: the event's total, given back there so that the replayed event adds up to it again.
 */
export type RecordedCall = (
  | {
      kind: "complete";
      node: string;
      purpose: CompletionPurpose;
      messages: ChatMessage[];
      answer: string;
      event: number;
      loc: Loc | null;
    }
  | { kind: "choose"; node: string; prompt: string; choices: string[]; answer: number; event: number; loc: Loc | null }
  /** At a node that offers tools; `messages` are the node's first ones, which every later request extends. */
  | { kind: "tools"; node: string; messages: ChatMessage[]; answer: ToolCompletion; event: number; loc: Loc | null }
) & { usage?: TokenUsage };

export interface ReplayModelOptions {
  /** "all" (default): node, messages, prompt and choices must match; "node": only the asking node. */
  check?: "all" | "node";
  /** Names the recording in messages (the trace file's name). */
  source?: string;
  /** The agent source file, for the locations in messages. */
  file?: string;
}

/** The run went another way than the recording: asked something else, or stepped elsewhere. */
export class ReplayDivergence extends Error {
  override name = "ReplayDivergence";
  readonly code = "replay_diverged";
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;
  /** Where the run stands: the node it is at. The message says where the recording was. */
  constructor(
    readonly node: string,
    message: string,
    at: { file?: string; loc?: Loc | null } = {},
  ) {
    super(message);
    this.file = at.loc ? at.file : undefined;
    this.line = at.loc?.line;
    this.column = at.loc?.column;
  }
}

/** The model calls a trace records, in the order they were made. */
export function recordedCalls(events: readonly TraceEvent[]): RecordedCall[] {
  const calls: RecordedCall[] = [];
  events.forEach((e, event) => {
    const first = calls.length;
    recordCalls(calls, e, event);
    if (e.usage && calls.length > first) calls[calls.length - 1]!.usage = e.usage;
  });
  return calls;
}

function recordCalls(calls: RecordedCall[], e: TraceEvent, event: number): void {
  if (e.kind === "generate" && e.toolAnswers) {
    // The trace keeps the answers that called tools apart from the text answers; a node asks
    // again after an unusable text answer only at its end, so this is the order they came in.
    const answers = [
      ...e.toolAnswers.map((a) => ({ ...a, finishReason: "tool_calls" })),
      ...e.raw.map((text) => ({ text, toolCalls: [], finishReason: "stop" })),
    ];
    for (const answer of answers)
      calls.push({ kind: "tools", node: e.node, messages: e.messages, answer, event, loc: e.loc });
  } else if (e.kind === "generate") {
    for (const answer of e.raw)
      calls.push({
        kind: "complete",
        node: e.node,
        purpose: e.purpose,
        messages: e.messages,
        answer,
        event,
        loc: e.loc,
      });
  } else if (e.kind === "custom") {
    // A custom action's hook asked these itself, in this order, before the event that reports it.
    for (const c of e.calls) {
      calls.push(
        c.kind === "complete"
          ? {
              kind: "complete",
              node: e.node,
              purpose: c.purpose,
              messages: c.messages,
              answer: c.answer,
              event,
              loc: e.loc,
            }
          : {
              kind: "choose",
              node: e.node,
              prompt: c.prompt,
              choices: c.choices,
              answer: c.answer,
              event,
              loc: e.loc,
            },
      );
    }
  } else if (e.kind === "transition" || e.kind === "return" || e.kind === "quit") {
    for (const d of e.decisions)
      calls.push({
        kind: "choose",
        node: e.node,
        prompt: d.prompt,
        choices: d.choices,
        answer: d.chosen,
        event,
        loc: e.loc,
      });
  }
}

export class ReplayModel implements ToolCallingModel {
  readonly calls: readonly RecordedCall[];
  private next = 0;
  private readonly check: "all" | "node";
  private readonly source: string;
  private readonly file: string;

  constructor(recording: readonly TraceEvent[] | string, options: ReplayModelOptions = {}) {
    this.source = options.source ?? "the recording";
    this.file = options.file ?? "<agent>";
    this.calls = recordedCalls(traceEvents(recording, options.source));
    this.check = options.check ?? "all";
  }

  /** The recorded answers stand for whatever settings the recorded run had: the same model answers. */
  withSettings(): this {
    return this;
  }

  /** Recorded answers not used yet. */
  get remaining(): number {
    return this.calls.length - this.next;
  }

  async complete(req: CompletionRequest): Promise<string> {
    const call = this.expect("complete", req.node, `generate text (${req.purpose})`);
    if (this.check === "all") {
      if (call.purpose !== req.purpose)
        this.diverge(call, req.node, `it generated ${call.purpose} text here, the run asks for ${req.purpose} text`);
      const difference = messagesDifference(call.messages, req.messages);
      if (difference) this.diverge(call, req.node, `the messages differ: ${difference}`);
    }
    this.next++;
    if (call.usage) req.onUsage?.(call.usage);
    return call.answer;
  }

  async choose(req: ChoiceRequest): Promise<number> {
    const call = this.expect("choose", req.node, "choose");
    if (this.check === "all") {
      if (JSON.stringify(call.choices) !== JSON.stringify(req.choices)) {
        this.diverge(
          call,
          req.node,
          `the choices differ: recorded ${JSON.stringify(call.choices)}, now ${JSON.stringify(req.choices)}`,
        );
      }
      const difference = textDifference(call.prompt, req.prompt);
      if (difference) this.diverge(call, req.node, `the question differs ${difference}`);
    }
    this.next++;
    if (call.usage) req.onUsage?.(call.usage);
    return call.answer;
  }

  async completeWithTools(req: ToolCompletionRequest): Promise<ToolCompletion> {
    const call = this.expect("tools", req.node, "answer with tools");
    if (this.check === "all") {
      const difference = messagesDifference(
        call.messages,
        req.messages.slice(0, call.messages.length) as ChatMessage[],
      );
      if (difference) this.diverge(call, req.node, `the messages differ: ${difference}`);
    }
    this.next++;
    if (call.usage) req.onUsage?.(call.usage);
    if (req.stream && call.answer.text) req.onText?.(call.answer.text);
    return structuredClone(call.answer);
  }

  private expect<K extends RecordedCall["kind"]>(
    kind: K,
    node: string,
    what: string,
  ): Extract<RecordedCall, { kind: K }> {
    const call = this.calls[this.next];
    if (!call) {
      throw new ReplayDivergence(
        node,
        `replay diverged: node '${node}' asks the model to ${what}, but ${this.source} has no model answer left (it had ${this.calls.length})`,
      );
    }
    if (call.kind !== kind || call.node !== node) {
      const recorded =
        call.kind === "complete" ? "generated text" : call.kind === "choose" ? "made a choice" : "answered with tools";
      this.diverge(
        call,
        node,
        `the recording ${recorded} at node '${call.node}'${this.at(call)} here, but the run asks node '${node}' to ${what}`,
      );
    }
    return call as Extract<RecordedCall, { kind: K }>;
  }

  private at(call: RecordedCall): string {
    return call.loc ? ` (${this.file}:${call.loc.line}:${call.loc.column})` : "";
  }

  private diverge(call: RecordedCall, node: string, why: string): never {
    throw new ReplayDivergence(
      node,
      `replay diverged at model call ${this.next + 1} of ${this.calls.length} (event ${call.event + 1} of ${this.source}): ${why}`,
    );
  }
}

function messagesDifference(recorded: readonly ChatMessage[], now: readonly ChatMessage[]): string | undefined {
  for (let i = 0; i < Math.max(recorded.length, now.length); i++) {
    const a = recorded[i];
    const b = now[i];
    if (!a || !b)
      return `the recording has ${recorded.length} message${recorded.length === 1 ? "" : "s"}, the run ${now.length}`;
    if (a.role !== b.role) return `message ${i + 1} is from ${a.role} in the recording, from ${b.role} now`;
    const d = textDifference(a.content, b.content);
    if (d) return `message ${i + 1} (${a.role}) ${d}`;
  }
  return undefined;
}

/** Where two texts first differ, with a little of each around that place; undefined when equal. */
export function textDifference(recorded: string, now: string): string | undefined {
  if (recorded === now) return undefined;
  let i = 0;
  while (i < recorded.length && i < now.length && recorded[i] === now[i]) i++;
  const around = (s: string) =>
    JSON.stringify(
      (i > 20 ? "…" : "") +
        s.slice(cutAfter(s, Math.max(0, i - 20)), cutBefore(s, i + 40)) +
        (s.length > i + 40 ? "…" : ""),
    );
  return `at character ${i + 1}: recorded ${around(recorded)}, now ${around(now)}`;
}
