/**
 * Chat and thought prompts laid out as the original lays them out (docs/semantics.md#prompts): the scope's
 * prompt before the first input, each past turn as an input/output pair, and the current input
 * built from the instruction template and the reply start. No system message; inputs are `user`
 * messages and outputs `assistant` messages. The oldest turns are dropped to fit the token budget:
 * the turns are read newest first and reading stops at the budget.
 */
import type { GraphNode } from "@autograms/graph";
import type { ChatMessage } from "../model/types.js";
import type { AgentConfig } from "./config.js";
import type { Turn } from "../memory/types.js";
import { keepEnd } from "../text/cut.js";
import { extendedBy } from "../memory/turns.js";
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

/** A past turn as a prompt's input and output, with their token cost. */
interface PastPair {
  cost: number;
  input: string;
  output: string;
}

/**
 * A past turn's input and output and their token cost, per agent (its config) and turn: turns in
 * memory are frozen, so what a prompt makes of one is made once, not again on every later turn.
 */
const pastPairs = new WeakMap<AgentConfig, WeakMap<Turn, PastPair>>();

function pastPair(turn: Turn, req: ChatPromptRequest): PastPair {
  const { config } = req;
  let cache = pastPairs.get(config);
  if (!cache) pastPairs.set(config, (cache = new WeakMap()));
  let pair = Object.isFrozen(turn) ? cache.get(turn) : undefined;
  if (!pair) {
    const input = pastInput(turn, req.nodeNamed(turn.node), config);
    pair = { cost: config.countTokens(input) + config.countTokens(turn.agent), input, output: turn.agent };
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

/** Whether a turn has a place among the past pairs of this prompt. */
function inPrompt(turn: Turn, req: ChatPromptRequest): boolean {
  return !!turn.agent && (req.node.conv_scope === undefined || (turn.category ?? "") === req.node.conv_scope);
}

/**
 * The past pairs a prompt of one turn list holds: the newest that fit, oldest first. Every turn of
 * the list from `start` on that has a place in the prompt is among them.
 */
interface Window {
  list: readonly Turn[];
  scope: string | undefined;
  start: number;
  /** The tokens of the pairs, without the prompt and the current input. */
  cost: number;
  pairs: readonly PastPair[];
}

/**
 * The window of each turn list's last prompt, per agent (its config), kept under the list's last
 * turn and holding the list: a turn's prompt is then made from the window of the list its turn
 * list extends (`extendedBy`), moved by the turns added since (the oldest pairs dropped as the
 * budget requires, older ones taken back where it allows), not by reading the conversation back
 * to the budget again. The next prompt replaces it: one is kept per conversation.
 */
const windows = new WeakMap<AgentConfig, WeakMap<Turn, Window>>();

/** How far back through the lists a turn made a window is looked for (a turn makes a list per turn it adds). */
const MAX_LINKS = 16;

function windowOf(list: readonly Turn[], req: ChatPromptRequest): Window | undefined {
  const kept = list.length ? windows.get(req.config)?.get(list.at(-1)!) : undefined;
  return kept?.list === list && kept.scope === req.node.conv_scope ? kept : undefined;
}

function earlierWindow(list: readonly Turn[], req: ChatPromptRequest): Window | undefined {
  let links = 0;
  for (let base = extendedBy(list); base && links < MAX_LINKS; base = extendedBy(base), links++) {
    const found = windowOf(base, req);
    if (found) return found;
  }
  return undefined;
}

function keepWindow(w: Window, req: ChatPromptRequest, replacing: Window | undefined): void {
  if (!w.list.length || !Object.isFrozen(w.list)) return;
  let cache = windows.get(req.config);
  if (!cache) windows.set(req.config, (cache = new WeakMap()));
  if (replacing && replacing.list !== w.list) cache.delete(replacing.list.at(-1)!);
  cache.set(w.list.at(-1)!, w);
}

/**
 * The newest pairs of a one-list conversation that fit in `room` tokens, as reading the list
 * newest first and stopping at the first pair that does not fit gives them.
 */
function pastWindow(list: readonly Turn[], req: ChatPromptRequest, room: number): Window {
  const from = windowOf(list, req) ?? earlierWindow(list, req);
  let start = list.length;
  let cost = 0;
  let pairs: PastPair[] = [];
  if (from) {
    ({ start, cost } = from);
    pairs = from.pairs.slice();
    for (let i = from.list.length; i < list.length; i++) {
      if (!inPrompt(list[i]!, req)) continue;
      const pair = pastPair(list[i]!, req);
      cost += pair.cost;
      pairs.push(pair);
    }
    // The oldest pairs out while they do not all fit (`start` moves past each one's turn).
    let dropped = 0;
    while (cost > room && dropped < pairs.length) {
      while (!inPrompt(list[start]!, req)) start++;
      cost -= pairs[dropped]!.cost;
      start++;
      dropped++;
    }
    if (dropped) pairs = pairs.slice(dropped);
    if (!pairs.length) start = list.length;
  }
  // Older pairs in while they fit, newest of them first.
  const older: PastPair[] = [];
  while (start > 0) {
    const turn = list[start - 1]!;
    if (inPrompt(turn, req)) {
      const pair = pastPair(turn, req);
      if (cost + pair.cost > room) break;
      cost += pair.cost;
      older.push(pair);
    }
    start--;
  }
  if (older.length) pairs = older.reverse().concat(pairs);
  const w = { list, scope: req.node.conv_scope, start, cost, pairs };
  keepWindow(w, req, from);
  return w;
}

/** The same for a conversation of several lists (a scope that sees its callers' turns), read newest first. */
function newestPairs(history: History, req: ChatPromptRequest, room: number): PastPair[] {
  const pairs: PastPair[] = [];
  let cost = 0;
  for (const turn of newestFirst(history)) {
    if (!inPrompt(turn, req)) continue;
    const pair = pastPair(turn, req);
    if (cost + pair.cost > room) break;
    cost += pair.cost;
    pairs.push(pair);
  }
  return pairs.reverse();
}

export function buildChatMessages(req: ChatPromptRequest): ChatMessage[] {
  const { config } = req;
  const count = config.countTokens;
  const budget = config.maxInputTokens;
  let current = fullInput(req.user, req.instruction, req.node, config);
  let prefix = `${req.prompt}\n\n`;
  const total = count(prefix) + count(current);
  let pairs: readonly PastPair[] = [];
  if (total <= budget) {
    const { turns } = req;
    const room = budget - total;
    pairs = turns.length === 1 ? pastWindow(turns[0]!, req, room).pairs : newestPairs(turns, req, room);
  } else {
    // No room for past pairs: the scope's prompt goes first, then the start of the current input.
    prefix = "";
    if (count(current) > budget) current = keepEnd(current, budget, count);
  }
  // Messages of their own for each prompt: a model may change what it is given.
  const messages: ChatMessage[] = new Array(pairs.length * 2 + 1);
  for (let i = 0; i < pairs.length; i++) {
    messages[2 * i] = { role: "user", content: pairs[i]!.input };
    messages[2 * i + 1] = { role: "assistant", content: pairs[i]!.output };
  }
  messages[pairs.length * 2] = { role: "user", content: current };
  messages[0]!.content = prefix + messages[0]!.content;
  return messages;
}
