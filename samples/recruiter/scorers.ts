// Scorers of the recruiter's cases (cases.yaml names them): plain functions of a turn, in code.
import { defineScorer } from "@autograms/runtime/eval";

/** The system prompt asks for two or three sentences: a reply of more than five fails. */
export const staysBrief = defineScorer({
  name: "stays brief",
  score: ({ turn }) => (turn.reply ?? "").split(/[.!?]+\s/).filter((s) => s.trim()).length <= 5,
  reason: ({ turn }, passed) => `${(turn.reply ?? "").length} characters${passed ? "" : ", more than five sentences"}`,
});

/** The wrap-up names the company the candidate would join. */
export const mentionsCompany = defineScorer({
  name: "mentions the company",
  score: ({ turn }) => (turn.reply?.includes(String(turn.vars.company)) ? 1 : 0),
});
