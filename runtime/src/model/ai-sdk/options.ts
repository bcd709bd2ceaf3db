import type { ServerCallOptions } from "../retries.js";
import type { ProviderOptions } from "./spec.js";

export interface AiSdkModelOptions extends ServerCallOptions {
  /**
   * Stream answers that someone watches (requests with `onText`) through the provider's doStream;
   * default true (AI SDK providers all stream). Other requests use doGenerate.
   */
  stream?: boolean;
  /** Sampling temperature of complete() and completeWithTools(); the provider's default when absent. */
  temperature?: number;
  /** Upper bound on the tokens of one completion (maxOutputTokens). */
  maxTokens?: number;
  /**
   * How choose() constrains the answer: "json" (default) asks for `{ "answer": <label> }` through
   * the provider's structured output (a JSON schema whose field is an enum of the labels); "text"
   * asks for the label alone. Both end, when the constrained answer fails, with a strictly
   * validated reading of a text answer.
   */
  choiceStrategy?: "json" | "text";
  /** Sent with every call (`providerOptions` of the AI SDK: e.g. `{ anthropic: { thinking: ... } }`). */
  providerOptions?: ProviderOptions;
  /** Extra HTTP headers for every call. */
  headers?: Record<string, string>;
}
