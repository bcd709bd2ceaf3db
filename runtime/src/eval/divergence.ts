/**
 * Where a replayed turn went another way than the turn a thread recorded: the first difference of
 * their paths (the last node they share, and the first node of each after it) or of their
 * replying nodes, at source lines in both builds: the recorded events keep the line each node had
 * when the turn ran, the current graph gives the line it has now.
 */
import { replyOf, type TraceEvent } from "../trace/events.js";
import type { AgentNames } from "./agent-names.js";

/** A turn's event, as a run makes it or as a store keeps it (without the prompts). */
interface AnyEvent {
  readonly node: string;
  readonly loc?: unknown;
}
type Events = readonly AnyEvent[];

/** A node and where it is written: in the build that recorded the thread, or in this one. */
export interface NodeAt {
  node: string;
  at: string | null;
}

export interface Divergence {
  /** The turn, numbered as `threads show` numbers it. */
  turn: number;
  what: "path" | "node" | "reply" | "error";
  /** The last node both paths share before they part (null when they part at once). */
  lastShared: { node: string; recorded: string | null; now: string | null } | null;
  /** The first node of each path after they part (null: that path ended there). */
  recorded: NodeAt | null;
  now: NodeAt | null;
  /** The node that replied, in the thread and now. */
  recordedReply: NodeAt | null;
  nowReply: NodeAt | null;
  /** With `what` "reply": the two replies; "error": why the replay failed. */
  detail?: string;
}

export interface ReplayedTurnEvents {
  seq: number;
  recorded: Events;
  now: Events;
  /** The replay failed, or stopped short: why. */
  error?: string;
  /** Strict replay: the replies must be the same too. */
  compareReplies?: boolean;
}

/** The difference of a replayed turn from its recording, or null when it went the same way. */
export function turnDivergence(turn: ReplayedTurnEvents, names: AgentNames): Divergence | null {
  const recordedAt = (e: AnyEvent | undefined) => {
    const loc = e?.loc as { line?: number } | null | undefined;
    return typeof loc?.line === "number" ? `${names.sourceName()}:${loc.line}` : null;
  };
  const before = pathOf(turn.recorded);
  const after = pathOf(turn.now);
  let part = 0;
  while (part < before.length && part < after.length && before[part]!.node === after[part]!.node) part++;
  const samePath = part === before.length && part === after.length;
  const recordedReply = replyEvent(turn.recorded);
  const nowReply = replyEvent(turn.now);
  const sameNode = recordedReply?.node === nowReply?.node;
  const replyText = (e: AnyEvent | undefined) => (e ? replyOf(e as unknown as TraceEvent) : undefined);
  const sameReply = !turn.compareReplies || replyText(recordedReply) === replyText(nowReply);
  if (turn.error === undefined && samePath && sameNode && sameReply) return null;
  const shared = part > 0 ? before[part - 1]! : null;
  const what = turn.error !== undefined ? "error" : !samePath ? "path" : !sameNode ? "node" : "reply";
  return {
    turn: turn.seq,
    what,
    lastShared: shared && { node: shared.node, recorded: recordedAt(shared.event), now: names.where(shared.node) },
    recorded: part < before.length ? { node: before[part]!.node, at: recordedAt(before[part]!.event) } : null,
    now: part < after.length ? { node: after[part]!.node, at: names.where(after[part]!.node) } : null,
    recordedReply: recordedReply ? { node: String(recordedReply.node), at: recordedAt(recordedReply) } : null,
    nowReply: nowReply ? { node: String(nowReply.node), at: names.where(String(nowReply.node)) } : null,
    ...(what === "error"
      ? { detail: turn.error }
      : what === "reply"
        ? { detail: `${JSON.stringify(replyText(recordedReply))} -> ${JSON.stringify(replyText(nowReply))}` }
        : {}),
  };
}

/** The nodes a turn passed through, each arrival once, with its first event (for its line then). */
function pathOf(events: Events): { node: string; event: AnyEvent }[] {
  const path: { node: string; event: AnyEvent }[] = [];
  for (const e of events) if (path.at(-1)?.node !== e.node) path.push({ node: String(e.node), event: e });
  return path;
}

function replyEvent(events: Events): AnyEvent | undefined {
  for (let i = events.length - 1; i >= 0; i--)
    if (replyOf(events[i] as unknown as TraceEvent) !== undefined) return events[i];
  return undefined;
}
