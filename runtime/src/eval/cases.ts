/**
 * A file of evaluation cases, as read: each case with the line of the file it starts at, each turn
 * and expectation with its own, so a problem found later (an unknown node, a failing scorer) is
 * reported where it was written. The format is docs/evals.md's; `casesSchema` checks its shape.
 */
import type { JsonValue } from "@autograms/graph";

/** A scorer of the user's code, named by the module that exports it (relative to the cases file). */
export interface ScorerRef {
  module: string;
  /** The export's name; `default` when absent. */
  name?: string;
}

export interface ReplyExpectation {
  contains?: string | string[];
  regex?: string;
  equals?: string;
  /** Text the reply must not contain. */
  not?: string | string[];
}

export interface ToolExpectation {
  /** The tool's name as the model called it. */
  name: string;
  /** A subset of the call's arguments: each given key with a deep-equal value. */
  args?: Record<string, JsonValue>;
}

/** What a turn must do: every field given is one expectation, scored on its own. */
export interface TurnExpectations {
  /** The node that replied: a node's name, or `file.ts:LINE` for the node written at that line. */
  node?: string;
  /** Nodes the turn passed through, in order (a subsequence of its path is enough). */
  path?: string[];
  reply?: ReplyExpectation;
  /** Variables' values after the turn, deep equality. */
  vars?: Record<string, JsonValue>;
  /** Variables' values after the turn, each checked against a JSON Schema. */
  varsSchema?: Record<string, JsonValue>;
  tool?: ToolExpectation;
  /** A criterion in words, scored by the judge model. */
  judge?: string;
  /** Tokens the turn's model calls may use in all (as the model reports them, else estimated). */
  maxTokens?: number;
  maxMs?: number;
  /** Scorers of the user's code, scored on this turn. */
  scorers?: ScorerRef[];
}

export interface TurnCase {
  /** What the user says; the first turn is the agent's opening, usually with no text. */
  user: string;
  expect: TurnExpectations;
  line: number;
  /** The line of each expectation, by its key. */
  lines: Partial<Record<keyof TurnExpectations, number>>;
}

/** Expectations on a whole simulated conversation. */
export interface ConversationExpectations {
  /** Nodes the conversation must reach. */
  reached?: string[];
  /** Nodes it must never reach. */
  notReached?: string[];
  /** It must end (reach `quit`, or the simulated user ends it) within its turns. */
  ended?: boolean;
  scorers?: ScorerRef[];
}

export interface SimulateCase {
  maxTurns: number;
  seed: number;
  expect: ConversationExpectations;
}

export interface EvalCase {
  name: string;
  line: number;
  /** Starting values of the agent's globals. */
  vars: Record<string, JsonValue>;
  turns: TurnCase[];
  /** A conversation with the agent's simulated user instead of scripted turns. */
  simulate?: SimulateCase;
  /** Scorers of the whole file and the case, scored on every turn. */
  scorers: ScorerRef[];
}

export interface CasesFile {
  file: string;
  cases: EvalCase[];
}
