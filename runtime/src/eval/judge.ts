/**
 * The judge: a model asked whether a turn meets a criterion in words. It answers PASS or FAIL and
 * why; the reason is kept beside the verdict.
 */
import type { ChatModel } from "../model/types.js";
import { EVAL_REASONS as R } from "./messages.js";
import type { TurnRecord } from "./turn-record.js";

const INSTRUCTIONS =
  "You judge one reply of a conversational agent against a criterion. Read the conversation and the criterion, then answer on the first line with PASS or FAIL alone, and on the next line, one sentence saying why.";

export interface Verdict {
  pass: boolean;
  reason: string;
}

export async function judgeTurn(
  model: ChatModel,
  criterion: string,
  before: readonly TurnRecord[],
  turn: TurnRecord,
): Promise<Verdict> {
  const lines: string[] = [];
  for (const t of [...before, turn]) {
    if (t.user) lines.push(`User: ${t.user}`);
    if (t.reply !== null) lines.push(`${t === turn ? "Agent (the reply to judge)" : "Agent"}: ${t.reply}`);
  }
  const answer = await model.complete({
    messages: [
      { role: "system", content: INSTRUCTIONS },
      { role: "user", content: `Conversation:\n${lines.join("\n")}\n\nCriterion: ${criterion}` },
    ],
    node: "(judge)",
    purpose: "thought",
  });
  const m = /^\s*\**(PASS|FAIL)\b\**[\s:.-]*([\s\S]*)$/i.exec(answer);
  if (!m) return { pass: false, reason: R.judge_unreadable(answer) };
  return { pass: m[1]!.toUpperCase() === "PASS", reason: m[2]!.trim() || R.judge_no_reason() };
}
