/**
 * User simulation (docs/semantics.md#user-simulation): at each chat node, an interjection may fire with its
 * probability, else a transition is sampled from `transition_probs`; its user instruction tells
 * the simulated user what to say. The end signal ends the conversation without a model call.
 */
import type { GraphNode } from "@autograms/graph";
import type { MemoryBody } from "../memory/types.js";
import { visibleTurns } from "../engine/scope.js";
import { fromFrames } from "../engine/stack.js";
import { allTurns } from "../engine/history.js";
import { buildUserMessages, cleanUserReply } from "../engine/user-prompt.js";
import type { Performer } from "./performer.js";
import { withRetries } from "./retries.js";
import type { ReplyResult, RunOptions } from "./run-options.js";
import type { Memory } from "../memory/types.js";

export interface UserSimulationOptions {
  /** Source of randomness in [0, 1); `Math.random` by default. Pass a seeded one to replay. */
  random?: () => number;
  /** At this turn an interjection whose user instruction is the end signal is forced, if there is one. */
  maxTurns?: number;
}

export interface SimulatedUser {
  text: string;
  /** The simulated user ends the conversation (its instruction was the end signal). */
  end: boolean;
  /** The instruction the simulated user followed, if any. */
  instruction?: string;
}

export interface SimulateOptions extends UserSimulationOptions, RunOptions {
  /** The user's first message (the agent usually speaks first, so empty by default). */
  first?: string;
}

export interface Simulation {
  transcript: { role: "agent" | "user"; text: string }[];
  memory: Memory | null;
  ended: "quit" | "end_signal" | "max_turns";
}

export async function simulateUserReply(
  p: Performer,
  mem: MemoryBody,
  options: UserSimulationOptions,
): Promise<SimulatedUser> {
  const { program } = p.env;
  const { config } = program;
  const random = options.random ?? Math.random;
  const frame = mem.stack[mem.stack.length - 1]!;
  const node = program.nodes.get(frame.node)!.node;
  const instruction = pickInstruction(p, node, mem.turn, random, options.maxTurns);
  if (instruction === config.endSignal) return { text: config.endSignal, end: true, instruction };
  const messages = buildUserMessages(
    allTurns(visibleTurns(fromFrames(mem.stack))),
    frame.userPrompt,
    instruction,
    config,
  );
  const raw = await withRetries(p, node.name, "simulate the user", async () => {
    const answer = await p.model.complete({ messages, node: node.name, purpose: "user" });
    if (typeof answer !== "string") throw new Error(`complete() returned ${typeof answer}, not a string`);
    return answer;
  });
  const text = cleanUserReply(raw, config);
  return instruction === undefined ? { text, end: false } : { text, end: false, instruction };
}

function pickInstruction(
  p: Performer,
  node: GraphNode,
  turn: number,
  random: () => number,
  maxTurns?: number,
): string | undefined {
  const { program } = p.env;
  const { config } = program;
  // The original's terminal nodes (its first simulated answer is the end signal, or it says
  // `quit`), and also one whose interjection is the end signal, which the original missed: it
  // could end a simulation after the agent's first reply.
  const terminal = (n: GraphNode) =>
    n.user_interjection === config.endSignal ||
    n.user_instruction_transitions?.[0] === config.endSignal ||
    n.instruction === "quit";
  for (const { node: j } of program.interjections) {
    // Ending the conversation by interjection is only plausible once it has got going: from the
    // agent's third reply, as the original's simulate_interjections (min_turns=3).
    if (terminal(j) && turn < 3) continue;
    if (random() < (j.probability_interjection ?? config.defaultProbabilityInterjection)) return j.user_interjection;
  }
  if (maxTurns !== undefined && turn >= maxTurns) {
    const end = program.interjections.find((c) => terminal(c.node));
    if (end) return end.node.user_interjection;
  }
  const index = sample(
    node.transition_probs ?? defaultProbs(node.transitions.length, config.defaultPrimaryProbDelta),
    random(),
  );
  return node.user_instruction_transitions?.[index];
}

function defaultProbs(n: number, delta: number): number[] {
  return Array.from({ length: n }, (_, i) => (i === 0 ? delta + (1 - delta) / n : (1 - delta) / n));
}

function sample(weights: readonly number[], r: number): number {
  const total = weights.reduce((a, b) => a + b, 0);
  if (!(total > 0)) return 0;
  let acc = 0;
  for (let i = 0; i < weights.length; i++) {
    acc += weights[i]! / total;
    if (r < acc) return i;
  }
  return weights.length - 1;
}

/** The agent a simulated conversation talks to (an `Agent`). */
export interface Conversant {
  reply(text: string, memory: Memory | undefined, options: RunOptions): Promise<ReplyResult>;
  simulateUser(memory: Memory, options: UserSimulationOptions): Promise<SimulatedUser>;
}

export async function simulateConversation(agent: Conversant, options: SimulateOptions): Promise<Simulation> {
  const maxTurns = options.maxTurns ?? 40;
  const transcript: Simulation["transcript"] = [];
  let text = options.first ?? "";
  if (text) transcript.push({ role: "user", text });
  let memory: Memory | null = null;
  // A conversation set up with other globals (`globals` applies to the first reply only) or played on another model.
  const run: RunOptions = {
    trace: options.trace,
    pause: options.pause,
    ...(options.model && { model: options.model }),
    ...(options.globals && { globals: options.globals }),
  };
  for (let turn = 0; turn < maxTurns; turn++) {
    const r = await agent.reply(text, memory ?? undefined, run);
    memory = r.memory;
    if (r.reply !== null) transcript.push({ role: "agent", text: r.reply });
    if (r.done) return { transcript, memory, ended: "quit" };
    const user = await agent.simulateUser(memory, { ...options, maxTurns });
    if (user.end) return { transcript, memory, ended: "end_signal" };
    transcript.push({ role: "user", text: user.text });
    text = user.text;
  }
  return { transcript, memory, ended: "max_turns" };
}
