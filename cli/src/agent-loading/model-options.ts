import type { Command } from "commander";
import { integer } from "../commands/integer.js";
import { PROVIDERS } from "./ai-sdk-providers.js";

export interface ModelFlags {
  offline?: boolean;
  /** With `offline`: milliseconds between the words it streams (default OFFLINE_WORD_DELAY_MS in model.ts). */
  offlinePace?: number;
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  /** The MCP servers' configuration, instead of the `.mcp.json` beside the agent. */
  mcpConfig?: string;
  /** Approve the `.mcp.json` beside the agent as it is now (remembered for the user). */
  approveMcp?: boolean;
  /** Someone watches replies as they are written (`chat --stream`): the model streams them. */
  stream?: boolean;
}

export const DEFAULT_OPENAI_MODEL = "gpt-4o-mini";

export function addModelOptions(command: Command): Command {
  return command
    .option("--offline", "use the offline model (deterministic canned answers, no network)")
    .option(
      "--offline-pace <ms>",
      "with --offline, milliseconds the offline model waits between the words of a reply it streams (default 20; 0: none, to measure the rest)",
      integer(0),
    )
    .option(
      "--model <name>",
      `the model's name on the server (default for OpenAI: ${DEFAULT_OPENAI_MODEL}; required with a base URL), ` +
        `or PROVIDER:MODEL for an AI SDK provider (${Object.keys(PROVIDERS).join(", ")})`,
    )
    .option("--base-url <url>", "an OpenAI-compatible server's API root (default: OPENAI_BASE_URL, else OpenAI)")
    .option("--api-key-env <VAR>", "the environment variable holding the API key (default: OPENAI_API_KEY)")
    .option(
      "--mcp-config <file>",
      "the MCP servers the agent imports tools from (`mcp:NAME`; default: the .mcp.json beside the agent, once approved)",
    )
    .option(
      "--approve-mcp",
      "approve the .mcp.json beside the agent to start its servers, as it is now (remembered; an edit needs approving again)",
    );
}
