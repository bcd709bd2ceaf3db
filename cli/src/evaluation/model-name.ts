/** The model an evaluation ran on, as a stored experiment names it: as the flags chose it. */
import { splitProviderModel } from "../agent-loading/ai-sdk-providers.js";
import { DEFAULT_OPENAI_MODEL, type ModelFlags } from "../agent-loading/model-options.js";

export function modelName(flags: ModelFlags): string {
  if (flags.offline) return "offline";
  const model = flags.model ?? DEFAULT_OPENAI_MODEL;
  const provider = flags.model !== undefined && splitProviderModel(flags.model);
  const server = flags.baseUrl ?? (provider ? undefined : process.env.OPENAI_BASE_URL || undefined);
  return server ? `${model} at ${withoutCredentials(server)}` : model;
}

/** A server's address as kept in the store: without a user name or password in it. */
function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname === "/" ? "" : u.pathname}`;
  } catch {
    return url;
  }
}
