/**
 * Multiple-choice prompts as the original lays them out (docs/semantics.md#transitions, #prompts): a preamble,
 * the last turn pairs (agent reply, then the user's answer), the question, lettered options.
 * The model gets the prompt and the option texts; the letters are part of the prompt.
 */
import type { AgentConfig } from "./config.js";
import { allTurns, lastTurns, turnCount, type History } from "./history.js";
import { choiceLabels } from "../model/choices.js";
import { keepEnd } from "../text/cut.js";

/** `A. answer` lines, labelled as the models read them back (letters, numbers beyond 26). */
function optionLines(choices: readonly string[]): string {
  const labels = choiceLabels(choices.length);
  return choices.map((c, i) => `${labels[i]}. ${c}\n`).join("");
}

/** The last `k` pairs (0: all) of (previous agent reply, following user message). */
export function questionContext(history: History, user: string, k: number, config: AgentConfig): string {
  // Only the turns the last k pairs use are read: pair i is turn i-1's reply and turn i's user message.
  const turns = k === 0 ? allTurns(history) : lastTurns(history, k);
  const first = turnCount(history) - turns.length;
  const users = [...turns.map((t) => t.user ?? ""), user];
  const entries: string[] = [];
  for (let j = first ? 1 : 0; j < users.length; j++) {
    const previous = first + j > 0 ? turns[j - 1]!.agent : "";
    const answer = users[j] ? `${config.userName}: ${users[j]}\n\n` : "";
    if (first + j === 0 && !answer) continue;
    entries.push(`${previous}\n\n${answer}\n\n`);
  }
  return (k === 0 ? entries : entries.slice(-k)).join("");
}

export function isYesNo(choices: readonly string[]): boolean {
  if (choices.length !== 2) return false;
  const [a, b] = choices.map((c) => c.trim().toLowerCase());
  return (a === "yes" && b === "no") || (a === "no" && b === "yes");
}

export interface Question {
  prompt: string;
  choices: string[];
}

export function transitionQuestion(args: {
  preamble: string;
  context: string;
  question: string;
  choices: readonly string[];
  config: AgentConfig;
}): Question {
  const { config } = args;
  const head = `${args.preamble}\n\n${args.context}`;
  // A yes/no question is asked as one; the answers stay the author's, in the author's order.
  if (isYesNo(args.choices)) return { prompt: fit(`${head}${args.question} (Yes or No)\n`, config), choices: [...args.choices] };
  return { prompt: fit(`${head}${args.question}\n${optionLines(args.choices)}`, config), choices: [...args.choices] };
}

export function interjectionQuestion(args: { examples: string[]; context: string; conditions: string[]; config: AgentConfig }): Question {
  const { config } = args;
  const choices = [...args.conditions, config.interjectionDefaultAnswer];
  const examples = args.examples.map((e) => `${e}\n\n`).join("");
  return {
    prompt: fit(`${examples}${config.defaultQuestionPrompt}\n\n${args.context}${config.interjectionQuestion}\n${optionLines(choices)}`, config),
    choices,
  };
}

function fit(prompt: string, config: AgentConfig): string {
  return keepEnd(prompt, config.maxClassifierInputTokens, config.countTokens);
}
