// Evaluation of agents (docs/evals.md): `@autograms/runtime/eval`. Cases from a file, scored on an
// Agent turn by turn; no compiler needed.
export { casesSchema } from "./case-schema.js";
export type {
  CasesFile,
  EvalCase,
  TurnCase,
  TurnExpectations,
  ReplyExpectation,
  ToolExpectation,
  ConversationExpectations,
  SimulateCase,
  ScorerRef,
} from "./cases.js";
export { readCases } from "./read-cases.js";
export { checkCases } from "./check-cases.js";
export { AgentNames } from "./agent-names.js";
export { EvalFileError, EVAL_PROBLEMS, EVAL_REASONS } from "./messages.js";
export type { EvalProblemCode, EvalReasonCode } from "./messages.js";
export { defineScorer, isScorer } from "./scorer.js";
export type { Scorer, ScorerSpec, ScoreInput, TurnInput, ConversationInput } from "./scorer.js";
export { loadScorers } from "./load-scorers.js";
export type { ModuleImporter } from "./load-scorers.js";
export { runCases } from "./run-cases.js";
export type { RunCasesOptions, CaseRun, CaseSummary, EvalReport } from "./run-cases.js";
export type { Outcome } from "./expectations.js";
export type { TurnRecord, ToolCallRecord } from "./turn-record.js";
export { openCases, evaluateFile } from "./evaluate-file.js";
export { toJunit } from "./junit.js";
export { turnDivergence, sideDivergence } from "./divergence.js";
export type { Divergence, NodeAt, ReplayedTurnEvents, TurnSide } from "./divergence.js";
export { compareReports } from "./compare.js";
export type { CaseChange } from "./compare.js";
