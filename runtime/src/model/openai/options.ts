import type OpenAI from "openai";
import type { ServerCallOptions } from "../retries.js";

export interface OpenAIModelOptions extends ServerCallOptions {
  /** Model name as the server knows it ("gpt-4o-mini", "llama3.1:8b", ...). */
  model: string;
  /** Server root, e.g. "http://localhost:11434/v1"; defaults to OPENAI_BASE_URL, then OpenAI's API. */
  baseURL?: string;
  /** Defaults to OPENAI_API_KEY; may be left out when baseURL names a server that needs none. */
  apiKey?: string;
  /**
   * As curl's low-speed limit: an attempt fails once its body (or stream) has brought fewer than
   * `bytes` in `windowMs`; default 48 bytes in 60000 ms, so a server that sends a byte every 2 s
   * fails the attempt in about a minute rather than holding it for the whole `timeout`.
   */
  lowSpeed?: { bytes?: number; windowMs?: number };
  /**
   * Stream text answers: a request that has `onText` (the runtime's chat replies) asks for
   * `stream: true` and passes on each piece as it arrives. A failed stream is sent again only
   * while none of its text has been passed on. Default false.
   */
  stream?: boolean;
  /** Sampling temperature of complete() and completeWithTools(); the server's default when absent. */
  temperature?: number;
  /** Upper bound on the tokens of one completion. */
  maxTokens?: number;
  /**
   * How choose() constrains the answer. "logprobs": one answer token (logit_bias on the label tokens
   * where their ids are known) read through its log-probabilities; "json_schema": structured output
   * `{ "answer": <label> }`; "auto" (default): logprobs, then json_schema when the server cannot.
   * Every strategy ends, when the constrained ones fail, with a strictly validated reading of the text.
   */
  choiceStrategy?: "logprobs" | "json_schema" | "auto";
  /**
   * Token ids of the answer labels, for logit_bias. "openai": the ids of A-Z in OpenAI's tokenizers
   * (the default for OpenAI model names); "none": no bias (the default for other models, whose
   * tokenizers differ); or a function from a label ("A", ..., or "27") to its single token id.
   */
  labelTokenIds?: "openai" | "none" | ((label: string) => number | undefined);
  /** Further request fields sent with every request (seed, top_p, server-specific fields). */
  extraBody?: Record<string, unknown>;
  defaultHeaders?: Record<string, string>;
  /**
   * A client configured elsewhere (Azure, proxies); baseURL, apiKey and timeout are then its own,
   * and so is maxRetries unless given here. Its fetch is wrapped for the body timeouts.
   */
  client?: OpenAI;
}

const env = (name: string) => {
  const value = process.env[name];
  return value === undefined || value === "" ? undefined : value;
};

export interface Connection {
  baseURL: string | undefined;
  apiKey: string;
}

/** The server and key, from the options or the environment; refused when there is neither. */
export function resolveConnection(options: OpenAIModelOptions): Connection {
  const baseURL = options.baseURL ?? env("OPENAI_BASE_URL");
  const apiKey = options.apiKey ?? env("OPENAI_API_KEY");
  if (apiKey === undefined && baseURL === undefined) {
    throw new Error(
      "OpenAIModel: no API key and no server. Set OPENAI_API_KEY (or pass apiKey) to use OpenAI, or set " +
        "OPENAI_BASE_URL (or pass baseURL) to use another OpenAI-compatible server, e.g. http://localhost:11434/v1.",
    );
  }
  // Local servers often need no key, but the client insists on one.
  return { baseURL, apiKey: apiKey ?? "no-key" };
}

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

// In OpenAI's tokenizers (cl100k_base, o200k_base) the letters A-Z are the tokens 32-57.
const openaiLetterIds = (label: string) =>
  label.length === 1 && LETTERS.includes(label) ? 32 + LETTERS.indexOf(label) : undefined;

const OPENAI_MODEL = /^(?:ft:)?(?:gpt-|chatgpt-|o\d)/;

export function labelTokenIds(options: OpenAIModelOptions): (label: string) => number | undefined {
  const choice = options.labelTokenIds ?? (OPENAI_MODEL.test(options.model) ? "openai" : "none");
  if (typeof choice === "function") return choice;
  return choice === "openai" ? openaiLetterIds : () => undefined;
}
