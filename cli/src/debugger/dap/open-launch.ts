// Opens what a DAP launch configuration names, with the same loader as `autograms debug`. The
// client is a program at the other end of a socket, so what it names is opened only when it is
// what a launch runs: an agent (a .ts file with a class that extends Autogram) or a graph (a .json
// file with "format": "autograms-graph"), a regular file of bounded size. An error about any other
// file says what is wrong with it without quoting it.
import { isAgentSource } from "../../agent-loading/agent-files.js";
import { resolve } from "node:path";
import { CliError } from "../../agent-loading/cli-error.js";
import { jsonFault, readRegularFile } from "../../agent-loading/files.js";
import { notAGraph } from "../../agent-loading/graph-format.js";
import { openSession } from "../open-session.js";
import type { LaunchArguments, Opener } from "./adapter.js";

/** The largest agent, graph or trace a launch opens. */
export const MAX_LAUNCH_FILE_BYTES = 16 * 1024 * 1024;

const AGENT = /\.[cm]?tsx?$/;
const GRAPH = /\.json$/;

/**
 * Loading an agent reports its compile diagnostics; a DAP client does not see stderr, so this
 * launch's diagnostics (and no other session's) are put in its error message.
 */
export const openLaunch: Opener = async (args) => {
  if (typeof args.program !== "string" || !args.program)
    throw new CliError('the launch configuration needs a "program": the agent\'s .ts file (or its graph .json)');
  const base = typeof args.cwd === "string" ? args.cwd : process.cwd();
  const program = resolve(base, args.program);
  checkProgram(program, args.program);
  if (args.replay !== undefined && typeof args.replay !== "string")
    throw new CliError('"replay" names a trace file (.jsonl)');
  const replay = args.replay === undefined ? undefined : resolve(base, args.replay);
  if (replay !== undefined) readLaunchFile(replay, args.replay!);
  if (args.mcpConfig !== undefined && typeof args.mcpConfig !== "string")
    throw new CliError('"mcpConfig" names the MCP servers\' configuration file (.mcp.json)');
  const flags = {
    offline: args.offline,
    model: args.model,
    baseUrl: args.baseUrl,
    apiKeyEnv: args.apiKeyEnv,
    ...(args.mcpConfig === undefined ? {} : { mcpConfig: resolve(base, args.mcpConfig) }),
  };
  const printed: string[] = [];
  try {
    const opened = await openSession(program, flags, {
      replay,
      conversation: args.conversation ?? 1,
      inputs: Array.isArray(args.userInputs) ? args.userInputs.map(String) : [],
      stopOnEntry: args.stopOnEntry === true,
      diagnostics: (formatted) => printed.push(formatted(false)),
    });
    return {
      session: opened.session,
      source: opened.source,
      sourcePath: opened.loaded.source?.path ?? null,
      close: opened.close,
    };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    throw new Error(printed.length ? `${printed.join("\n").trimEnd()}\n${message}` : message);
  }
};

/** Refuses a program that is not an agent or a graph, saying why in words of its own. */
function checkProgram(path: string, given: string): void {
  if (!AGENT.test(path) && !GRAPH.test(path))
    throw new CliError(`'${given}' is neither an agent's .ts file nor a graph .json`);
  const text = readLaunchFile(path, given);
  if (AGENT.test(path)) {
    if (!isAgentSource(text)) throw new CliError(`'${given}' is not an agent: it has no class that extends Autogram`);
    return;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new CliError(`'${given}' is not a graph: ${jsonFault(err)}`);
  }
  if (notAGraph(value))
    throw new CliError(`'${given}' is not a graph (a JSON object with "format": "autograms-graph", version 1)`);
}

function readLaunchFile(path: string, given: string): string {
  const refuse = (why: string) => new CliError(`cannot open '${given}': ${why}`);
  const text = readRegularFile(path, MAX_LAUNCH_FILE_BYTES, refuse, "a launch");
  if (text === null) throw refuse("no such file");
  return text;
}

export type { LaunchArguments };
