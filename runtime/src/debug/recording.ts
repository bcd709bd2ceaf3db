/**
 * A recorded run read back: trace events from an array or a JSONL file (one event per line), cut
 * into conversations and turns. A turn after the first starts with its `user` event; the first
 * turn's message is not an event, so it is read back from what the second turn's `user` event
 * says `_last_user_reply` was before (when the trace can tell). A turn whose code read the time
 * has a `time` event: its replay is given that time.
 */
import { LAST_USER_REPLY, TRACE_KIND_NAMES } from "@autograms/graph";
import { replyOf, type TraceEvent } from "../trace/events.js";

export class RecordingError extends Error {
  override name = "RecordingError";
}

export interface RecordedTurn {
  /** The user's message that started the turn; undefined for a first turn the trace cannot tell. */
  user: string | undefined;
  events: TraceEvent[];
}

/** The time the turn ran at (what `Date.now()` gave its code), when its code read it. */
export function turnTime(turn: RecordedTurn): number | undefined {
  for (const e of turn.events) if (e.kind === "time") return e.time;
  return undefined;
}

export interface RecordedConversation {
  turns: RecordedTurn[];
  /** Reached `quit`. */
  done: boolean;
}

/**
 * Reads a JSONL trace. Lines that are not trace events (a writer's header or summary records,
 * recognised by a `kind` that is no event kind) are skipped; a line that is not JSON is an error
 * naming the line.
 */
export function parseTrace(text: string, fileName = "trace"): TraceEvent[] {
  const events: TraceEvent[] = [];
  text.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      // Not the parser's message: it quotes the line, and the file may not be a trace at all.
      throw new RecordingError(`${fileName}:${i + 1}: not a JSON line`);
    }
    if (!value || typeof value !== "object" || Array.isArray(value))
      throw new RecordingError(`${fileName}:${i + 1}: not a JSON object`);
    const record = value as { kind?: unknown; node?: unknown };
    if (typeof record.kind !== "string" || !TRACE_KIND_NAMES.has(record.kind as TraceEvent["kind"])) return;
    if (typeof record.node !== "string")
      throw new RecordingError(`${fileName}:${i + 1}: a '${record.kind}' event without a node`);
    events.push(value as TraceEvent);
  });
  return events;
}

/** Events as given, or parsed from JSONL text. */
export function traceEvents(recording: readonly TraceEvent[] | string, fileName?: string): TraceEvent[] {
  return typeof recording === "string" ? parseTrace(recording, fileName) : [...recording];
}

const endsTurn = (e: TraceEvent) => replyOf(e) !== undefined;

/**
 * Cuts events into conversations. Events that carry a `conversation` number (as one trace file of
 * several simulated conversations does) are grouped by it first. Then a chat node's reply ends a
 * turn, and what follows is the next turn's `user` event, or else the start of another conversation.
 */
export function conversationsOf(events: readonly TraceEvent[]): RecordedConversation[] {
  const numbered = new Map<unknown, TraceEvent[]>();
  for (const e of events) {
    const key = (e as { conversation?: unknown }).conversation;
    const group = numbered.get(key);
    if (group) group.push(e);
    else numbered.set(key, [e]);
  }
  if (numbered.size > 1) return [...numbered.values()].flatMap(split);
  return split(events);
}

function split(events: readonly TraceEvent[]): RecordedConversation[] {
  const out: RecordedConversation[] = [];
  let conversation: RecordedConversation | null = null;
  let turn: RecordedTurn | null = null;
  let ended = true;
  for (const e of events) {
    if (ended && e.kind === "quit" && conversation && turn && !conversation.done) {
      // A chat node whose only way on is quit ends the conversation with its reply.
      turn.events.push(e);
      conversation.done = true;
      continue;
    }
    if (ended && e.kind === "user" && conversation) {
      turn = { user: e.text, events: [] };
      conversation.turns.push(turn);
    } else if (ended || !conversation || !turn) {
      turn = { user: undefined, events: [] };
      conversation = { turns: [turn], done: false };
      out.push(conversation);
    }
    turn.events.push(e);
    ended = endsTurn(e) || e.kind === "quit";
    if (e.kind === "quit") conversation.done = true;
  }
  for (const c of out) c.turns[0]!.user = firstMessage(c);
  return out;
}

/** Conversation `index` (from 0) of a recording, or an error saying how many it holds. */
export function recordedConversation(
  recording: readonly TraceEvent[] | string,
  index: number,
  source?: string,
): RecordedConversation {
  const conversations = conversationsOf(traceEvents(recording, source));
  const chosen = conversations[index];
  if (!chosen) {
    throw new RecordingError(
      `${source ?? "the recording"} holds ${conversations.length} conversation${conversations.length === 1 ? "" : "s"}, not a conversation ${index + 1}`,
    );
  }
  return chosen;
}

function firstMessage(c: RecordedConversation): string | undefined {
  const second = c.turns[1]?.events[0];
  if (second?.kind !== "user") return undefined;
  const change = second.changes.find((ch) => ch.name === LAST_USER_REPLY);
  // No change reported: the message was the same as the first.
  if (!change) return second.text;
  return typeof change.before === "string" ? change.before : undefined;
}
