/**
 * Experiments: the same cases run on two builds of an agent (another file, another model) and
 * what changed between them: cases that pass on one and fail on the other, and each turn that
 * went another way, with where the two paths part at the lines of each build.
 */
import type { AgentNames } from "./agent-names.js";
import { sideDivergence, type Divergence, type TurnSide } from "./divergence.js";
import type { EvalReport } from "./run-cases.js";
import type { TurnRecord } from "./turn-record.js";

export interface CaseChange {
  case: string;
  line: number;
  /** Runs passed of runs made, on the build compared against and on this one. */
  before: { passed: number; runs: number };
  after: { passed: number; runs: number };
  /** The turns (of each case's first run) that went another way: `recorded` is the other build, `now` this one. */
  turns: Divergence[];
}

/** What changed from `before` (the other build's report) to `after` (this build's); unchanged cases are left out. */
export function compareReports(
  before: EvalReport,
  after: EvalReport,
  names: { before: AgentNames; after: AgentNames },
): CaseChange[] {
  const changes: CaseChange[] = [];
  for (const c of after.cases) {
    const old = before.cases.find((b) => b.case === c.case);
    if (!old) continue;
    const first = (report: EvalReport) => report.runs.find((r) => r.case === c.case && r.run === 1)?.turns ?? [];
    const [was, is] = [first(before), first(after)];
    const turns: Divergence[] = [];
    for (let i = 0; i < Math.max(was.length, is.length); i++) {
      const d = sideDivergence(i + 1, sideOf(was[i], names.before), sideOf(is[i], names.after));
      if (d) turns.push(d);
    }
    const resultChanged = old.passed !== c.passed || old.runs !== c.runs;
    if (resultChanged || turns.length)
      changes.push({
        case: c.case,
        line: c.line,
        before: { passed: old.passed, runs: old.runs },
        after: { passed: c.passed, runs: c.runs },
        turns,
      });
  }
  return changes;
}

/** A turn's way in the build that ran it; a turn that never ran (its case stopped before) has none. */
function sideOf(turn: TurnRecord | undefined, names: AgentNames): TurnSide {
  if (!turn) return { path: [], reply: null, replyText: null };
  return {
    path: turn.path.map((node) => ({ node, at: names.where(node) })),
    reply: turn.replyNode === null ? null : { node: turn.replyNode, at: names.where(turn.replyNode) },
    replyText: turn.reply,
  };
}
