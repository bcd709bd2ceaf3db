// Opens what a DAP launch configuration names, with the same loader as `autograms debug`.
import { resolve } from "node:path";
import { CliError } from "../../agent-loading/cli-error.js";
import { openSession } from "../open-session.js";
import type { LaunchArguments, Opener } from "./adapter.js";

/**
 * Loading an agent prints its compile diagnostics on stderr, which a DAP client does not show:
 * they are caught here and put in the launch's error message.
 */
export const openLaunch: Opener = async (args) => {
  if (typeof args.program !== "string" || !args.program) throw new CliError("the launch configuration needs a \"program\": the agent's .ts file (or its graph .json)");
  const base = args.cwd ?? process.cwd();
  const flags = { offline: args.offline, model: args.model, baseUrl: args.baseUrl, apiKeyEnv: args.apiKeyEnv };
  const printed: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    printed.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
    return true;
  }) as typeof process.stderr.write;
  try {
    const opened = await openSession(resolve(base, args.program), flags, {
      replay: args.replay === undefined ? undefined : resolve(base, args.replay),
      conversation: args.conversation ?? 1,
      inputs: args.userInputs ?? [],
      stopOnEntry: args.stopOnEntry ?? false,
    });
    return { session: opened.session, source: opened.source, sourcePath: opened.loaded.source?.path ?? null };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    throw new Error(printed.length ? `${printed.join("").trimEnd()}\n${message}` : message);
  } finally {
    process.stderr.write = write;
  }
};

export type { LaunchArguments };
