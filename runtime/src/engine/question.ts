/**
 * Multiple-choice prompts as the original lays them out (docs/semantics.md#transitions, #prompts): a preamble,
 * the last turn pairs (agent reply, then the user's answer), the question, lettered options.
 * The model gets the prompt and the option texts; the letters are part of the prompt.
 */
import type { AgentConfig } from "./config.js";
import type { GraphNode } from "@autograms/graph";
import type { Turn } from "../memory/types.js";
import { newestFirst, type History } from "./history.js";
import { pastInput } from "./prompt.js";
import { choiceLabels } from "../model/choices.js";
import { keepEnd } from "../text/cut.js";

/** `A. answer` lines, labelled as the models read them back (letters, numbers beyond 26). */
function optionLines(choices: readonly string[]): string {
  const labels = choiceLabels(choices.length);
  return choices.map((c, i) => `${labels[i]}. ${c}\n`).join("");
}

/**
 * The conversation a question shows, as the original's `make_prompt(..., transition=True)` and
 * `predict_next_state` lay it out: the inputs are the past turns' inputs (as a chat prompt shows
 * them: the user's message and the reply start, or the whole instruction when it is retained;
 * the first one after a blank line) and then the user's new message; the outputs are the
 * replies. Both are cut to their last `k` (0: all); when as many outputs as inputs remain, each
 * reply goes before the input that follows it, else the oldest input stands first, alone.
 */
export function questionContext(
  history: History,
  user: string,
  k: number,
  config: AgentConfig,
  nodeNamed: (name: string) => GraphNode | undefined,
): string {
  // Only the turns the window shows are read, and one more to know whether the first input is cut off.
  const past: Turn[] = [];
  for (const turn of newestFirst(history)) {
    if (!turn.agent) continue;
    past.push(turn);
    if (k > 0 && past.length > k) break;
  }
  past.reverse();
  const whole = k === 0 || past.length < k;
  const current = !user ? "" : config.replyStartType === "none" ? `${user}\n\n` : `${config.userName}: ${user}\n\n`;
  const inputs = [...past.map((t) => pastInput(t, nodeNamed(t.node), config)), current];
  // The original's first input follows the (empty) start prompt's blank line.
  if (whole) inputs[0] = `\n\n${inputs[0]}`;
  const outputs = past.map((t) => t.agent);
  const shownInputs = k === 0 ? inputs : inputs.slice(-k);
  const shownOutputs = k === 0 ? outputs : outputs.slice(-k);
  let text = "";
  shownInputs.forEach((input, i) => {
    if (shownOutputs.length === shownInputs.length) text += `${shownOutputs[i]}\n\n`;
    else if (i > 0) text += `${shownOutputs[i - 1]}\n\n`;
    text += `${input}\n\n`;
  });
  return text;
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
  // A yes/no question is asked as one, its hint on a line of its own after the question's line
  // break as the original writes it; the answers stay the author's, in the author's order.
  const asked = `${head}${args.question}\n`;
  if (isYesNo(args.choices)) return { prompt: fit(`${asked} (Yes or No)`, config), choices: [...args.choices] };
  return { prompt: fit(`${asked}${optionLines(args.choices)}`, config), choices: [...args.choices] };
}

export function interjectionQuestion(args: {
  examples: string[];
  context: string;
  conditions: string[];
  config: AgentConfig;
}): Question {
  const { config } = args;
  const choices = [...args.conditions, config.interjectionDefaultAnswer];
  const examples = args.examples.map((e) => `${e}\n\n`).join("");
  return {
    prompt: fit(
      `${examples}${config.defaultQuestionPrompt}\n\n${args.context}${config.interjectionQuestion}\n${optionLines(choices)}`,
      config,
    ),
    choices,
  };
}

function fit(prompt: string, config: AgentConfig): string {
  return keepEnd(prompt, config.maxClassifierInputTokens, config.countTokens);
}
