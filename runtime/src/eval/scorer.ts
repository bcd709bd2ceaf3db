/**
 * Scorers of the user's code: `defineScorer({ name, score, reason })`, scored on a turn or on a
 * whole conversation. A cases file names them by module and export; a scorer that throws fails
 * what it scores with its name and message, and the other cases go on.
 */
import type { TurnRecord } from "./turn-record.js";

export interface TurnInput {
  kind: "turn";
  case: string;
  turn: TurnRecord;
  /** The turns before it, in order. */
  before: TurnRecord[];
}

export interface ConversationInput {
  kind: "conversation";
  case: string;
  turns: TurnRecord[];
  /** How the conversation ended; null when it did not (the case's turns ran out first). */
  ended: "quit" | "end_signal" | "max_turns" | null;
  /** What was said, in order (a simulated conversation has no turn records, only this). */
  transcript: { role: "user" | "agent"; text: string }[];
}

export type ScoreInput = TurnInput | ConversationInput;

export interface ScorerSpec<I extends ScoreInput = ScoreInput> {
  name: string;
  /** What it scores: each turn (the default), or the whole conversation once. */
  on?: I["kind"];
  /** true / false, or a number from 0 to 1 that passes at `threshold`. */
  score(input: I): number | boolean | Promise<number | boolean>;
  /** Why it scored so, shown beside the score. */
  reason?(input: I, score: number | boolean): string;
  /** The least number that passes (default 0.5). */
  threshold?: number;
}

const SCORER = Symbol.for("autograms.scorer");

export interface Scorer<I extends ScoreInput = ScoreInput> extends Readonly<Required<Omit<ScorerSpec<I>, "reason">>> {
  readonly reason: ScorerSpec<I>["reason"];
  readonly [SCORER]: true;
}

export function defineScorer<I extends ScoreInput = TurnInput>(spec: ScorerSpec<I>): Scorer<I> {
  if (!spec || typeof spec.name !== "string" || !spec.name)
    throw new TypeError("defineScorer({ name, score }) needs a name");
  if (typeof spec.score !== "function") throw new TypeError(`scorer '${spec.name}' needs a score function`);
  const threshold = spec.threshold ?? 0.5;
  if (!(threshold >= 0 && threshold <= 1)) throw new TypeError(`scorer '${spec.name}': threshold is from 0 to 1`);
  return Object.freeze({
    name: spec.name,
    on: spec.on ?? ("turn" as I["kind"]),
    score: spec.score,
    reason: spec.reason,
    threshold,
    [SCORER]: true as const,
  });
}

export function isScorer(value: unknown): value is Scorer {
  return typeof value === "object" && value !== null && (value as { [SCORER]?: unknown })[SCORER] === true;
}
