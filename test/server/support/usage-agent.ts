// The agent of the usage tests: each turn asks the model a multiple-choice question, then writes
// a reply, so a turn has two model calls, each with tokens of its own.
import type { GraphNode } from "@autograms/runtime";
import type { OpenAIServer } from "../../support/openai-server.js";

export const usageNodes: GraphNode[] = [
  {
    name: "route",
    action: "transition",
    transitions: ["greet", "greet"],
    transition_question: "Polite?",
    transition_choices: ["yes", "no"],
  },
  { name: "greet", action: "chat", instruction: "Greet the user.", transitions: ["route"] },
] as GraphNode[];

/** A turn's answers: the choice (1 token in, 1 out, the test server's default), then `text` with these tokens. */
export function enqueueTurn(openai: OpenAIServer, text: string, input: number, output: number): void {
  openai.enqueue({ choice: "A" }, { text, usage: { prompt_tokens: input, completion_tokens: output } });
}
