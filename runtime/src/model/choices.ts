// How the answers of a multiple-choice question are labelled, listed and read back.
import { ModelError } from "./errors.js";
import type { ChoiceRequest } from "./types.js";

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** Labels for `count` answers: letters A-Z up to 26 answers, numbers 1..count beyond. */
export function choiceLabels(count: number): string[] {
  return Array.from({ length: count }, (_, i) => (count <= LETTERS.length ? LETTERS[i]! : String(i + 1)));
}

/** The answer list as the classifier question shows it: one `A. answer` line per choice. */
export function formatChoices(choices: readonly string[]): string {
  const labels = choiceLabels(choices.length);
  return choices.map((choice, i) => `${labels[i]}. ${choice}\n`).join("");
}

/** The question with its answer list, appended when the question does not hold it already. */
export function promptWithChoices(prompt: string, choices: readonly string[]): string {
  const list = formatChoices(choices);
  if (prompt.includes(list)) return prompt;
  return `${prompt}${prompt === "" || prompt.endsWith("\n") ? "" : "\n"}${list}`;
}

/** What the model is told besides the question. */
export function choiceInstruction(labels: readonly string[]): string {
  const range = labels.length <= 3 ? labels.join(", ") : `${labels[0]} to ${labels[labels.length - 1]}`;
  return `Answer the multiple choice question with the ${labels[0] === "A" ? "letter" : "number"} of the one correct answer (${range}) and nothing else.`;
}

/** A multiple-choice question as a model is asked it. */
export interface ChoiceQuestion {
  node: string;
  choices: readonly string[];
  labels: readonly string[];
  /** The system message (the instruction) and the user message (the question with its answer list). */
  system: string;
  user: string;
}

/** What a model is asked for a choice; or the answer, when there is only one. */
export function choiceQuestion(req: ChoiceRequest): ChoiceQuestion | { index: number } {
  const { node, choices } = req;
  if (choices.length === 0) throw new ModelError(node, "answer", "there are no choices to choose from");
  if (choices.length === 1) return { index: 0 };
  const labels = choiceLabels(choices.length);
  return { node, choices, labels, system: choiceInstruction(labels), user: promptWithChoices(req.prompt, choices) };
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The index of the answer that a free-text reply names, or undefined when it names none plainly.
 * Accepted: the label alone ("B", "b", "(B)", "**B**"), the label with punctuation and more text
 * ("B) yes", "B. Because"), `{"answer": "B"}`, "Answer: B", "The answer is B", or the exact text of
 * one choice. Nothing else is guessed: "I think B" names no answer.
 */
export function readChoiceAnswer(reply: string, choices: readonly string[]): number | undefined {
  const labels = choiceLabels(choices.length);
  const text = reply.trim();
  const byLabel = (label: string | undefined) => {
    const i = label === undefined ? -1 : labels.indexOf(label.toUpperCase());
    return i < 0 ? undefined : i;
  };
  if (/^\{[\s\S]*\}$/.test(text)) return byLabel(jsonAnswer(text));
  const label = `(${[...labels]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join("|")})`;
  const open = `[("'*\\[]*`;
  const close = `[)"'*\\].:]`;
  const patterns = [
    new RegExp(`^${open}${label}${close}*$`, "i"), // the label alone, in either case
    new RegExp(`^${open}${label}${close}+`), // the label, then punctuation and more
    new RegExp(`^(?:[Tt]he\\s+)?(?:[Cc]orrect\\s+)?[Aa]nswer(?:\\s+is)?\\s*:?\\s*${open}${label}(?:${close}|\\s|$)`),
  ];
  for (const pattern of patterns) {
    const found = byLabel(pattern.exec(text)?.[1]);
    if (found !== undefined) return found;
  }
  const bare = text
    .replace(/[.!]+$/, "")
    .trim()
    .toLowerCase();
  const i = choices.findIndex((c) => c.trim().toLowerCase() === bare);
  return i < 0 ? undefined : i;
}

function jsonAnswer(text: string): string | undefined {
  try {
    const answer = (JSON.parse(text) as { answer?: unknown }).answer;
    return typeof answer === "string" ? answer.trim() : typeof answer === "number" ? String(answer) : undefined;
  } catch {
    return undefined;
  }
}
