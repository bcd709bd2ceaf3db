/**
 * Where a replayed turn went another way than the turn a thread recorded: the first difference of
 * their paths (the last node they share, and the first node of each after it) or of their
 * replying nodes, at source lines in both builds: the recorded events keep the line each node had
 * when the turn ran, the current graph gives the line it has now.
 */
import { replyOf, replyStep, type TraceEvent } from "../trace/events.js";
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

/** One way a turn went: its path and replying node with their lines in the build that ran it. */
export interface TurnSide {
  path: NodeAt[];
  reply: NodeAt | null;
  replyText?: string | null;
}

/** The difference of a replayed turn from its recording, or null when it went the same way. */
export function turnDivergence(turn: ReplayedTurnEvents, names: AgentNames): Divergence | null {
  const recordedAt = (e: AnyEvent) => {
    const loc = e.loc as { line?: number } | null | undefined;
    return typeof loc?.line === "number" ? `${names.sourceName()}:${loc.line}` : null;
  };
  const side = (events: Events, at: (e: AnyEvent) => string | null): TurnSide => {
    const reply = replyStep(events);
    return {
      path: pathOf(events).map(({ node, event }) => ({ node, at: at(event) })),
      reply: reply ? { node: reply.node, at: at(reply) } : null,
      replyText: reply ? (replyOf(reply as unknown as TraceEvent) ?? null) : null,
    };
  };
  return sideDivergence(
    turn.seq,
    side(turn.recorded, recordedAt),
    side(turn.now, (e) => names.where(e.node)),
    turn,
  );
}

/**
 * Where two ways of one turn differ: `before` (the recording, or the build compared against) and
 * `after` (this build); null when they went the same way.
 */
export function sideDivergence(
  seq: number,
  before: TurnSide,
  after: TurnSide,
  options: { error?: string; compareReplies?: boolean } = {},
): Divergence | null {
  let part = 0;
  while (part < before.path.length && part < after.path.length && before.path[part]!.node === after.path[part]!.node)
    part++;
  const samePath = part === before.path.length && part === after.path.length;
  const sameNode = before.reply?.node === after.reply?.node;
  const sameReply = !options.compareReplies || before.replyText === after.replyText;
  if (options.error === undefined && samePath && sameNode && sameReply) return null;
  const what = options.error !== undefined ? "error" : !samePath ? "path" : !sameNode ? "node" : "reply";
  const shared = part > 0 ? part - 1 : null;
  return {
    turn: seq,
    what,
    lastShared:
      shared === null
        ? null
        : { node: before.path[shared]!.node, recorded: before.path[shared]!.at, now: after.path[shared]!.at },
    recorded: before.path[part] ?? null,
    now: after.path[part] ?? null,
    recordedReply: before.reply,
    nowReply: after.reply,
    ...(what === "error"
      ? { detail: options.error }
      : what === "reply"
        ? { detail: `${JSON.stringify(before.replyText)} -> ${JSON.stringify(after.replyText)}` }
        : {}),
  };
}

/** The nodes a turn passed through, each arrival once, with its first event (for its line then). */
function pathOf(events: Events): { node: string; event: AnyEvent }[] {
  const path: { node: string; event: AnyEvent }[] = [];
  for (const e of events) if (path.at(-1)?.node !== e.node) path.push({ node: String(e.node), event: e });
  return path;
}
