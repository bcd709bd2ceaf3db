/** What the runtime asks of a language model (DESIGN §3). */

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export type CompletionPurpose = "chat" | "thought" | "user";

export interface CompletionRequest {
  messages: ChatMessage[];
  /** Name of the node that asks (for logs, traces and scripted test models). */
  node: string;
  purpose: CompletionPurpose;
}

export interface ChoiceRequest {
  prompt: string;
  choices: string[];
  node: string;
}

export interface ChatModel {
  /** chat, chat_suffix, thought and simulated-user generations. */
  complete(req: CompletionRequest): Promise<string>;
  /** Multiple-choice transitions and interjections: the index of the chosen answer. */
  choose(req: ChoiceRequest): Promise<number>;
}
