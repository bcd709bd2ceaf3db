/**
 * Chat and thought prompts laid out as the original lays them out (docs/semantics.md#prompts): the scope's
 * prompt before the first input, each past turn as an input/output pair, and the current input
 * built from the instruction template and the reply start. No system message; inputs are `user`
 * messages and outputs `assistant` messages. The oldest turns are dropped to fit the token budget:
 * the turns are read newest first and reading stops at the budget.
 */
import type { GraphNode } from "../graph/types.js";
import type { ChatMessage } from "../model/types.js";
import type { AgentConfig } from "./config.js";
import type { Turn } from "../memory/types.js";
import { keepEnd } from "../text/cut.js";
import { newestFirst, type History } from "./history.js";

function fill(template: string, slots: Record<string, string>): string {
  return template.replace(/<(last_response|instruction|agent_name)>/g, (whole, key: string) => slots[key] ?? whole);
}

const defaultStarts = new WeakMap<AgentConfig, string>();

export function replyStart(node: GraphNode | undefined, config: AgentConfig): string {
  if (node?.reply_start !== undefined) return node.reply_start;
  let start = defaultStarts.get(config);
  if (start === undefined)
    defaultStarts.set(config, (start = fill(config.defaultReplyStartTemplate, { agent_name: config.agentName })));
  return start;
}

/** The model input for an instruction, with the user message it answers (if any). */
export function fullInput(user: string, instruction: string, node: GraphNode | undefined, config: AgentConfig): string {
  const lastResponse = !user ? "" : config.replyStartType === "none" ? user : `${config.userName}: ${user}\n\n`;
  const text = fill(node?.instruction_template ?? config.instructionTemplate, {
    last_response: lastResponse,
    instruction,
    agent_name: config.agentName,
  });
  return config.replyStartType === "suffix" ? `${text}\n${replyStart(node, config)}` : text;
}

/** A past turn's input: the whole instruction when it is retained, else only the user's message. */
export function pastInput(turn: Turn, node: GraphNode | undefined, config: AgentConfig): string {
  if (turn.instruction !== undefined) return fullInput(turn.user ?? "", turn.instruction, node, config);
  const user = turn.user ? (config.replyStartType === "none" ? turn.user : `${config.userName}: ${turn.user}`) : "";
  return config.replyStartType === "suffix" ? `${user}\n${replyStart(node, config)}` : user;
}

/**
 * A past turn's input and its token cost, per agent (its config) and turn: turns in memory are
 * frozen, so what a prompt makes of one is made once, not again on every later turn.
 */
const pastInputs = new WeakMap<AgentConfig, WeakMap<Turn, { input: string; cost: number }>>();

function pastPair(turn: Turn, req: ChatPromptRequest): { input: string; cost: number } {
  const { config } = req;
  let cache = pastInputs.get(config);
  if (!cache) pastInputs.set(config, (cache = new WeakMap()));
  let pair = Object.isFrozen(turn) ? cache.get(turn) : undefined;
  if (!pair) {
    const input = pastInput(turn, req.nodeNamed(turn.node), config);
    pair = { input, cost: config.countTokens(input) + config.countTokens(turn.agent) };
    if (Object.isFrozen(turn)) cache.set(turn, pair);
  }
  return pair;
}

export interface ChatPromptRequest {
  prompt: string;
  turns: History;
  node: GraphNode;
  user: string;
  instruction: string;
  config: AgentConfig;
  nodeNamed: (name: string) => GraphNode | undefined;
}

export function buildChatMessages(req: ChatPromptRequest): ChatMessage[] {
  const { config } = req;
  const count = config.countTokens;
  const budget = config.maxInputTokens;
  let current = fullInput(req.user, req.instruction, req.node, config);
  let prefix = `${req.prompt}\n\n`;
  let total = count(prefix) + count(current);
  // The newest pairs that fit with the prompt and the current input, newest first.
  const pairs: [string, string][] = [];
  if (total <= budget) {
    for (const turn of newestFirst(req.turns)) {
      if (!turn.agent) continue;
      if (req.node.conv_scope !== undefined && (turn.category ?? "") !== req.node.conv_scope) continue;
      const { input, cost } = pastPair(turn, req);
      if (total + cost > budget) break;
      total += cost;
      pairs.push([input, turn.agent]);
    }
  }
  if (total > budget) {
    total -= count(prefix);
    prefix = "";
  }
  if (total > budget) current = keepEnd(current, budget, count);
  const messages: ChatMessage[] = [];
  for (let i = pairs.length - 1; i >= 0; i--) {
    messages.push({ role: "user", content: pairs[i]![0] }, { role: "assistant", content: pairs[i]![1] });
  }
  messages.push({ role: "user", content: current });
  messages[0] = { role: "user", content: prefix + messages[0]!.content };
  return messages;
}
