import type { Command } from "commander";
import type { ChatModel } from "@autograms/runtime";
import { CliError } from "./cli-error.js";

export interface ModelFlags {
  offline?: boolean;
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
}

const DEFAULT_OPENAI_MODEL = "gpt-4o-mini";

export const NEEDS_MODEL = "this function needs a model: pass --offline or set OPENAI_API_KEY/OPENAI_BASE_URL";

const HOW_TO_CHOOSE = [
  "no model to talk to. Choose one:",
  "  --offline                          the offline model: canned answers, no network",
  `  OPENAI_API_KEY=...                 OpenAI (--model picks the model, default ${DEFAULT_OPENAI_MODEL})`,
  "  --base-url URL or OPENAI_BASE_URL  any OpenAI-compatible server (vLLM, Ollama, llama.cpp...), with --model",
  "  --api-key-env VAR                  read the API key from VAR instead of OPENAI_API_KEY",
].join("\n");

export function addModelOptions(command: Command): Command {
  return command
    .option("--offline", "use the offline model (deterministic canned answers, no network)")
    .option("--model <name>", `the model's name on the server (default for OpenAI: ${DEFAULT_OPENAI_MODEL}; required with a base URL)`)
    .option("--base-url <url>", "an OpenAI-compatible server's API root (default: OPENAI_BASE_URL, else OpenAI)")
    .option("--api-key-env <VAR>", "the environment variable holding the API key (default: OPENAI_API_KEY)");
}

const env = (name: string) => (process.env[name] === "" ? undefined : process.env[name]);

/**
 * The model the flags and the environment choose. `required`: with no model at all, a usage error
 * that says how to choose one; otherwise a model that refuses every call with NEEDS_MODEL, for
 * agents that never ask one (`none` is then true).
 */
export async function chooseModel(flags: ModelFlags, required: boolean): Promise<{ model: ChatModel; none: boolean }> {
  const runtime = await import("@autograms/runtime");
  if (flags.offline) {
    if (flags.baseUrl !== undefined || flags.model !== undefined || flags.apiKeyEnv !== undefined) {
      throw new CliError("--offline cannot be combined with --model, --base-url or --api-key-env", 2);
    }
    return { model: new runtime.OfflineModel(), none: false };
  }
  let apiKey = env("OPENAI_API_KEY");
  if (flags.apiKeyEnv !== undefined) {
    apiKey = env(flags.apiKeyEnv);
    if (apiKey === undefined) throw new CliError(`--api-key-env ${flags.apiKeyEnv}: that environment variable is not set`, 2);
  }
  const baseURL = flags.baseUrl ?? env("OPENAI_BASE_URL");
  if (apiKey === undefined && baseURL === undefined) {
    if (required) throw new CliError(HOW_TO_CHOOSE, 2);
    const refuse = async (): Promise<never> => { throw new Error(NEEDS_MODEL); };
    return { model: { complete: refuse, choose: refuse }, none: true };
  }
  // Another server's models have other names, and OpenAI's label token ids would be wrong for them.
  if (baseURL !== undefined && flags.model === undefined) throw new CliError(`--model: name the model to use on ${baseURL}`, 2);
  const options = { model: flags.model ?? DEFAULT_OPENAI_MODEL, ...(baseURL === undefined ? {} : { baseURL }), ...(apiKey === undefined ? {} : { apiKey }) };
  return { model: new runtime.OpenAIModel(options), none: false };
}
