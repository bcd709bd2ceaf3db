/**
 * Two custom actions (node types of this agent's own), defined with defineAction. The compiler
 * reads each definition's name, base and fields from here; the Agent runs the hooks.
 */
import { defineAction } from "@autograms/runtime";
import { LIBRARY, type Passage } from "./library.js";

const YES = ["yes", "y", "yep", "yeah", "correct", "right", "that's right", "sure"];
const NO = ["no", "n", "nope", "wrong", "not quite"];

/** Lower-case words, punctuation aside. */
function words(text: string): string[] {
  return text.toLowerCase().normalize("NFKC").split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
}

/**
 * Repeats the user's last message back and asks whether it is right, with no model call; the
 * user's yes or no picks the first or the second transition, and anything else is left to the
 * usual way (the model answers the node's transition_question). Its output is the confirmed text.
 */
export const confirm = defineAction({
  name: "confirm",
  fields: {
    /** What the reply says before the repeated text. */
    question: { type: "string" },
  },
  instruction(ctx) {
    const said = (ctx.userReply ?? "").trim();
    const question = ctx.fields.question ?? "You said";
    return { reply: `${question} "${said}". Is that right?`, output: said };
  },
  transition(ctx) {
    const answer = words(ctx.userReply ?? "").join(" ");
    if (YES.includes(answer)) return ctx.node.transitions[0];
    if (NO.includes(answer)) return ctx.node.transitions[1];
    return null;
  },
});

const STOP = new Set(["a", "an", "and", "are", "can", "do", "does", "for", "how", "i", "in", "is", "it", "my", "of", "on", "or", "the", "to", "what", "when", "where", "which", "who", "with", "you"]);

/** The words of a text that say something, crudely stemmed (`opens` and `open` match). */
function terms(text: string): Set<string> {
  return new Set(words(text).filter((w) => !STOP.has(w)).map((w) => (w.length > 3 ? w.replace(/s$/, "") : w)));
}

/** The passages that share the most terms with the question (ties in index order), at most `top`. */
export function search(question: string, top: number): Passage[] {
  const asked = terms(question);
  return LIBRARY
    .map((passage, i) => ({ passage, i, score: [...terms(`${passage.title} ${passage.text}`)].filter((t) => asked.has(t)).length }))
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, top)
    .map((s) => s.passage);
}

/**
 * A chat node whose prompt carries the passages of the local index that match the user's
 * question: the model answers from them. Its output is the reply and the passages it was given.
 */
export const retrieve = defineAction({
  name: "retrieve",
  base: "chat",
  fields: {
    /** How many passages at most go into the prompt. */
    top: { type: "integer", minimum: 1, maximum: 5 },
  },
  async instruction(ctx) {
    const found = search(ctx.userReply ?? "", ctx.fields.top ?? 2);
    const passages = found.length
      ? found.map((p, i) => `[${i + 1}] ${p.title}: ${p.text}`).join("\n")
      : "(no passage matches the question)";
    const reply = await ctx.generate(`${ctx.instruction}\n\nPassages:\n${passages}`);
    return { reply: reply.trim(), output: { reply: reply.trim(), passages: found.map((p) => p.id) } };
  },
});
