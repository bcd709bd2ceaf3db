/**
 * Settings with the original's defaults (docs/semantics.md#differences-from-the-original). Prompt texts are conventions of the
 * original and kept as they were, so prompts tuned for it read the same here.
 */
export interface AgentConfig {
  /** The scope prompt before any `set_prompt`. */
  defaultPrompt: string;
  /** The simulated user's prompt before any `set_user_prompt`. */
  defaultUserPrompt: string;
  agentName: string;
  userName: string;
  /** `<last_response>`, `<instruction>` and `<agent_name>` are filled in. */
  instructionTemplate: string;
  /** The simulated user's instruction layout (`<last_response>`, `<instruction>`). */
  userInstructionTemplate: string;
  /** `suffix`: every model input ends with the reply start ("Agent's reply:"); `none`: it does not. */
  replyStartType: "suffix" | "none";
  /** Used when a node has no `reply_start`; `<agent_name>` is filled in. */
  defaultReplyStartTemplate: string;
  defaultQuestionPrompt: string;
  /** Turn pairs shown with a transition question; 0 shows the whole history. */
  defaultTransitionContext: number;
  interjectionQuestion: string;
  interjectionDefaultAnswer: string;
  defaultProbabilityInterjection: number;
  /** Extra sampling weight of a node's first transition in user simulation. */
  defaultPrimaryProbDelta: number;
  /** What a simulated user says to end the conversation. */
  endSignal: string;
  /** Token budget of a chat or thought prompt; the oldest turns go first. */
  maxInputTokens: number;
  /** Token budget of a multiple-choice question; longer ones lose their beginning. */
  maxClassifierInputTokens: number;
  /** Token estimate used for the budgets. */
  countTokens: (text: string) => number;
  /** Further attempts after a model call fails, before the turn fails. */
  modelRetries: number;
  /** Wait before retry k is k times this. */
  retryDelayMs: number;
  /**
   * Generations tried when an answer is unusable (a `chat_suffix` reply that cannot be made to end
   * with its text, an answer with a banned phrase); then `chat_suffix` falls back to its exact
   * text and other nodes keep the last answer.
   */
  generationAttempts: number;
  /** Answers containing one of these (case-insensitive) are unusable. */
  bannedPhrases: string[];
  /**
   * Rounds of native tool calls one node may make; the model is then asked once more with tools
   * refused, and a node whose model still calls tools fails (`tool_limit`).
   */
  maxToolRounds: number;
  /** Ask for native tool-calling answers as streams (tool calls then arrive in fragments). */
  streamTools: boolean;
}

export const defaultConfig: AgentConfig = {
  defaultPrompt: "You are an agent.",
  defaultUserPrompt: "You are a user.",
  agentName: "Agent",
  userName: "User",
  instructionTemplate: "<last_response>\n\nInstruction for <agent_name>: <instruction>",
  userInstructionTemplate: "<last_response>\n\nInstruction for user: <instruction>",
  replyStartType: "suffix",
  defaultReplyStartTemplate: "<agent_name>'s reply:",
  defaultQuestionPrompt: "I need you to solve a multiple choice question.\n",
  defaultTransitionContext: 1,
  interjectionQuestion: "Which of the following is True?",
  interjectionDefaultAnswer: "None of the above.",
  defaultProbabilityInterjection: 0.01,
  defaultPrimaryProbDelta: 0.3,
  endSignal: "<end>",
  maxInputTokens: 3500,
  maxClassifierInputTokens: 2048,
  countTokens: (text) => Math.ceil(text.length / 4),
  modelRetries: 2,
  retryDelayMs: 500,
  generationAttempts: 2,
  bannedPhrases: [],
  maxToolRounds: 8,
  streamTools: false,
};
