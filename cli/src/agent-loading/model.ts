import { OfflineModel, type ChatModel, type RetryNotice } from "@autograms/runtime";
import { CliError } from "./cli-error.js";
import { splitProviderModel } from "./ai-sdk-providers.js";
import { DEFAULT_OPENAI_MODEL, type ModelFlags } from "./model-options.js";

export const NEEDS_MODEL = "this function needs a model: pass --offline or set OPENAI_API_KEY/OPENAI_BASE_URL";

const HOW_TO_CHOOSE = [
  "no model to talk to. Choose one:",
  "  --offline                          the offline model: canned answers, no network",
  `  OPENAI_API_KEY=...                 OpenAI (--model picks the model, default ${DEFAULT_OPENAI_MODEL})`,
  "  --base-url URL or OPENAI_BASE_URL  any OpenAI-compatible server (vLLM, Ollama, llama.cpp...), with --model",
  "  --api-key-env VAR                  read the API key from VAR instead of OPENAI_API_KEY",
  "  --model PROVIDER:MODEL             an AI SDK provider (anthropic:claude-sonnet-4-5, ollama:llama3.2, ...)",
].join("\n");

/** A wait for a retry that a person would notice, on stderr: the command is not stuck. */
function showRetry(n: RetryNotice): void {
  if (n.delayMs < 1000) return;
  const seconds = n.delayMs >= 10_000 ? Math.round(n.delayMs / 1000) : Math.round(n.delayMs / 100) / 10;
  const what = n.status !== undefined ? "model server busy" : "model server not answering";
  process.stderr.write(
    `${what}, retrying in ${seconds} s (${n.reason} at node '${n.node}'; attempt ${n.attempt + 1} of ${n.attempts})\n`,
  );
}

// The offline model's pause between streamed words: its canned text then grows on the screen as a
// model's would, without making a demo wait.
const OFFLINE_WORD_DELAY_MS = 20;

const env = (name: string) => (process.env[name] === "" ? undefined : process.env[name]);

/**
 * The model the flags and the environment choose. `required`: with no model at all, a usage error
 * that says how to choose one; otherwise a model that refuses every call with NEEDS_MODEL, for
 * agents that never ask one (`none` is then true).
 */
export async function chooseModel(flags: ModelFlags, required: boolean): Promise<{ model: ChatModel; none: boolean }> {
  if (flags.offlinePace !== undefined && !flags.offline)
    throw new CliError("--offline-pace sets the offline model's pace: give it with --offline", 2);
  if (flags.offline) {
    if (flags.baseUrl !== undefined || flags.model !== undefined || flags.apiKeyEnv !== undefined) {
      throw new CliError("--offline cannot be combined with --model, --base-url or --api-key-env", 2);
    }
    const wordDelayMs = flags.offlinePace ?? OFFLINE_WORD_DELAY_MS;
    return { model: new OfflineModel(flags.stream ? { wordDelayMs } : {}), none: false };
  }
  const named = flags.apiKeyEnv === undefined ? undefined : env(flags.apiKeyEnv);
  if (flags.apiKeyEnv !== undefined && named === undefined)
    throw new CliError(`--api-key-env ${flags.apiKeyEnv}: that environment variable is not set`, 2);
  const provider = flags.model === undefined ? undefined : splitProviderModel(flags.model);
  if (provider) {
    // The provider's package is loaded only when it is asked for.
    const { providerModel } = await import("./ai-sdk-model.js");
    const choice = {
      ...provider,
      ...(flags.baseUrl !== undefined && { baseURL: flags.baseUrl }),
      ...(named !== undefined && { apiKey: named }),
    };
    return { model: await providerModel({ ...choice, options: { onRetry: showRetry } }), none: false };
  }
  const apiKey = flags.apiKeyEnv !== undefined ? named : env("OPENAI_API_KEY");
  const baseURL = flags.baseUrl ?? env("OPENAI_BASE_URL");
  if (apiKey === undefined && baseURL === undefined) {
    if (required) throw new CliError(HOW_TO_CHOOSE, 2);
    const refuse = async (): Promise<never> => {
      throw new Error(NEEDS_MODEL);
    };
    return { model: { complete: refuse, choose: refuse }, none: true };
  }
  // Another server's models have other names, and OpenAI's label token ids would be wrong for them.
  if (baseURL !== undefined && flags.model === undefined)
    throw new CliError(`--model: name the model to use on ${baseURL}`, 2);
  const options = {
    model: flags.model ?? DEFAULT_OPENAI_MODEL,
    ...(baseURL === undefined ? {} : { baseURL }),
    ...(apiKey === undefined ? {} : { apiKey }),
    onRetry: showRetry,
    ...(flags.stream && { stream: true }),
  };
  // The OpenAI client is loaded only when it is asked for.
  const { OpenAIModel } = await import("./openai-model.js");
  return { model: new OpenAIModel(options), none: false };
}
