import type { Env } from "../engine/env.js";
import { AgentError } from "../errors.js";
import { ModelError } from "../model/errors.js";
import type { Deadline } from "./deadline.js";

/**
 * Model calls fail for passing reasons (rate limits, timeouts): try again, then fail located.
 * A ModelError is final already (OpenAIModel's client has retried what is worth retrying, and a
 * scripted model's missing answer will not appear), so it fails at once, named by its cause alone.
 */
export async function withRetries<T>(
  p: { env: Env; deadline?: Deadline | undefined },
  nodeName: string,
  what: string,
  attempt: () => Promise<T>,
): Promise<T> {
  const config = p.env.program.config;
  for (let i = 0; ; i++) {
    try {
      return await attempt();
    } catch (e) {
      // A turn past its deadline or cancelled asks the model nothing more: its answer would be thrown away.
      if (p.deadline?.signal.aborted) throw e;
      if (e instanceof ModelError || i >= config.modelRetries) {
        const node = p.env.program.nodes.get(nodeName)?.node;
        // A ModelError's detail already counts the client's attempts.
        const message =
          e instanceof ModelError
            ? `the model failed to ${what}: ${e.detail}`
            : `the model failed to ${what} after ${i + 1} attempt${i ? "s" : ""}: ${e instanceof Error ? e.message : String(e)}`;
        throw new AgentError("model", message, { node: nodeName, loc: node?.loc, file: p.env.program.file, cause: e });
      }
      if (config.retryDelayMs > 0) await new Promise((res) => setTimeout(res, config.retryDelayMs * (i + 1)));
    }
  }
}
