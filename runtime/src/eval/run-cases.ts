/**
 * Runs a file's cases on an Agent: each case (and each repetition) on its own memory, up to
 * `concurrency` at a time; scores every expectation, the judge's and the scorers' too. A case that
 * fails (a turn throws, a scorer throws) fails alone; the others run.
 */
import type { Agent } from "../agent/agent.js";
import { seededRandom } from "../agent/seeded-random.js";
import type { ChatModel } from "../model/types.js";
import type { Memory } from "../memory/types.js";
import { AgentNames } from "./agent-names.js";
import type { CasesFile, EvalCase, ScorerRef, TurnCase } from "./cases.js";
import { scoreConversation, scoreTurn, type Outcome } from "./expectations.js";
import { judgeTurn } from "./judge.js";
import { EVAL_REASONS as R } from "./messages.js";
import type { ConversationInput, ScoreInput, Scorer } from "./scorer.js";
import { TokenCount } from "./token-count.js";
import { TurnTrace, visibleVars, type TurnRecord } from "./turn-record.js";

export interface RunCasesOptions {
  /** Cases run at once (default 4). */
  concurrency?: number;
  /** Runs of each case (default 1): with a model that varies, pass rates. */
  repeat?: number;
  /** The model that scores `judge` expectations (default: the agent's). */
  judge?: ChatModel;
  /** The scorers the file names, by `module#name` (see `loadScorers`). */
  scorers?: ReadonlyMap<string, Scorer>;
  /** Told of each run as it ends. */
  onRun?: (run: CaseRun) => void;
}

export interface CaseRun {
  case: string;
  /** The case's line in the file. */
  line: number;
  /** 1 to `repeat`. */
  run: number;
  pass: boolean;
  turns: TurnRecord[];
  outcomes: Outcome[];
  ms: number;
}

export interface CaseSummary {
  case: string;
  line: number;
  runs: number;
  passed: number;
}

export interface EvalReport {
  file: string;
  agent: string;
  runs: CaseRun[];
  cases: CaseSummary[];
  /** Every expectation of every run passed. */
  pass: boolean;
  ms: number;
}

export const scorerKey = (ref: ScorerRef) => `${ref.module}#${ref.name ?? "default"}`;

export async function runCases(agent: Agent, cases: CasesFile, options: RunCasesOptions = {}): Promise<EvalReport> {
  const started = performance.now();
  const names = new AgentNames(agent.graph);
  const repeat = options.repeat ?? 1;
  const jobs = cases.cases.flatMap((c) => Array.from({ length: repeat }, (_, i) => ({ c, run: i + 1 })));
  const runs: CaseRun[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const index = next++;
      const { c, run } = jobs[index]!;
      const result = await runCase(agent, c, run, names, options);
      runs[index] = result;
      options.onRun?.(result);
    }
  };
  const concurrency = Math.max(1, Math.min(options.concurrency ?? 4, jobs.length));
  await Promise.all(Array.from({ length: concurrency }, worker));
  const summaries = cases.cases.map((c) => {
    const mine = runs.filter((r) => r.case === c.name);
    return { case: c.name, line: c.line, runs: mine.length, passed: mine.filter((r) => r.pass).length };
  });
  return {
    file: cases.file,
    agent: agent.graph.agent,
    runs,
    cases: summaries,
    pass: runs.every((r) => r.pass),
    ms: performance.now() - started,
  };
}

async function runCase(
  agent: Agent,
  c: EvalCase,
  run: number,
  names: AgentNames,
  options: RunCasesOptions,
): Promise<CaseRun> {
  const started = performance.now();
  const { turns, outcomes } = c.simulate
    ? await simulated(agent, c, names, options)
    : await scripted(agent, c, names, options);
  return {
    case: c.name,
    line: c.line,
    run,
    pass: outcomes.every((o) => o.pass),
    turns,
    outcomes,
    ms: performance.now() - started,
  };
}

async function scripted(agent: Agent, c: EvalCase, names: AgentNames, options: RunCasesOptions) {
  const turns: TurnRecord[] = [];
  const outcomes: Outcome[] = [];
  let memory: Memory | undefined;
  for (const [i, turn] of c.turns.entries()) {
    const trace = new TurnTrace();
    const tokens = new TokenCount();
    const start = performance.now();
    const globals = i === 0 && Object.keys(c.vars).length ? { globals: c.vars } : {};
    let record: TurnRecord;
    try {
      const r = await agent.reply(turn.user, memory, {
        trace: trace.sink,
        model: tokens.counting(agent.model),
        ...globals,
      });
      memory = r.memory;
      record = {
        turn: i + 1,
        user: turn.user,
        reply: r.reply,
        replyNode: r.reply === null ? null : trace.replyNode,
        replyAt: r.reply === null || trace.replyNode === null ? null : names.where(trace.replyNode),
        path: trace.path,
        tools: trace.tools,
        vars: visibleVars(r.memory),
        ms: performance.now() - start,
        tokens: { total: tokens.total, estimated: tokens.estimated },
        done: r.done,
      };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      outcomes.push({
        turn: i + 1,
        expectation: "turn runs",
        pass: false,
        reason: R.turn_failed(message),
        line: turn.line,
      });
      break;
    }
    turns.push(record);
    outcomes.push(...scoreTurn(turn, record, names));
    outcomes.push(...(await judged(agent, turn, turns, options)));
    const input = { kind: "turn" as const, case: c.name, turn: record, before: turns.slice(0, -1) };
    const refs = [...c.scorers, ...(turn.expect.scorers ?? [])];
    outcomes.push(...(await scored(refs, input, options, record.turn, turn.lines.scorers ?? turn.line)));
  }
  const ended = turns.at(-1)?.done ? ("quit" as const) : null;
  const conversation: ConversationInput = {
    kind: "conversation",
    case: c.name,
    turns,
    ended,
    transcript: transcriptOf(turns),
  };
  outcomes.push(...(await scored(c.scorers, conversation, options, null, c.line)));
  return { turns, outcomes };
}

async function simulated(agent: Agent, c: EvalCase, names: AgentNames, options: RunCasesOptions) {
  const sim = c.simulate!;
  const visited = new Set<string>();
  try {
    const result = await agent.simulate({
      random: seededRandom(sim.seed),
      maxTurns: sim.maxTurns,
      trace: (e) => visited.add(e.node),
      ...(Object.keys(c.vars).length ? { globals: c.vars } : {}),
    });
    const outcomes = scoreConversation(sim.expect, visited, result.ended, names, c.line);
    const input: ConversationInput = {
      kind: "conversation",
      case: c.name,
      turns: [],
      ended: result.ended,
      transcript: result.transcript,
    };
    outcomes.push(...(await scored([...c.scorers, ...(sim.expect.scorers ?? [])], input, options, null, c.line)));
    return { turns: [], outcomes };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return {
      turns: [],
      outcomes: [
        { turn: null, expectation: "conversation runs", pass: false, reason: R.turn_failed(message), line: c.line },
      ],
    };
  }
}

async function judged(agent: Agent, turn: TurnCase, turns: TurnRecord[], options: RunCasesOptions): Promise<Outcome[]> {
  const criterion = turn.expect.judge;
  if (criterion === undefined) return [];
  const record = turns.at(-1)!;
  const line = turn.lines.judge ?? turn.line;
  try {
    const verdict = await judgeTurn(options.judge ?? agent.model, criterion, turns.slice(0, -1), record);
    return [
      { turn: record.turn, expectation: `judge: ${criterion}`, pass: verdict.pass, reason: verdict.reason, line },
    ];
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return [
      { turn: record.turn, expectation: `judge: ${criterion}`, pass: false, reason: R.judge_threw(message), line },
    ];
  }
}

/** The scorers named that score this kind of input, each one outcome; one that throws fails alone. */
async function scored(
  refs: readonly ScorerRef[],
  input: ScoreInput,
  options: RunCasesOptions,
  turn: number | null,
  line: number,
): Promise<Outcome[]> {
  const out: Outcome[] = [];
  for (const ref of refs) {
    const scorer = options.scorers?.get(scorerKey(ref));
    if (!scorer) throw new Error(`the scorer ${scorerKey(ref)} was not loaded (loadScorers)`);
    if (scorer.on !== input.kind) continue;
    const expectation = `scorer ${scorer.name}`;
    try {
      const score = await scorer.score(input as never);
      const pass = typeof score === "boolean" ? score : typeof score === "number" && score >= scorer.threshold;
      if (typeof score !== "boolean" && !(typeof score === "number" && score >= 0 && score <= 1)) {
        out.push({ turn, expectation, pass: false, reason: R.scorer_bad_value(scorer.name, String(score)), line });
        continue;
      }
      const reason =
        scorer.reason?.(input as never, score) ??
        (typeof score === "number" ? R.scorer_score(score, scorer.threshold) : String(score));
      out.push({ turn, expectation, pass, reason, line });
    } catch (err) {
      out.push({
        turn,
        expectation,
        pass: false,
        reason: R.scorer_threw(scorer.name, err instanceof Error ? err.message : String(err)),
        line,
      });
    }
  }
  return out;
}

function transcriptOf(turns: readonly TurnRecord[]): ConversationInput["transcript"] {
  return turns.flatMap((t) => [
    ...(t.user ? [{ role: "user" as const, text: t.user }] : []),
    ...(t.reply !== null ? [{ role: "agent" as const, text: t.reply }] : []),
  ]);
}
