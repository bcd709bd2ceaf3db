// Loads what a debug session needs: the graph (an agent compiled, or a graph file), its source,
// its tools (those of its modules and of the MCP servers it imports from, `--mcp-config` or the
// .mcp.json beside it), and the model the flags choose, or the recording to replay instead.
import { DebugSession, RecordingError, type ChatModel } from "@autograms/runtime";
import { CliError } from "../agent-loading/cli-error.js";
import { readText } from "../agent-loading/files.js";
import { loadAgentGraph, type LoadedAgent } from "../agent-loading/load-graph.js";
import type { DiagnosticSink } from "../agent-loading/compile-agent.js";
import { chooseModel } from "../agent-loading/model.js";
import type { ModelFlags } from "../agent-loading/model-options.js";
import { openMcpTools } from "../agent-loading/mcp-tools.js";
import { bundleOf } from "../agent-loading/open-agent.js";
import { importHostCode } from "../agent-loading/tools.js";
import { SourceLines } from "./present.js";

export interface SessionChoices {
  /** A trace file to replay instead of asking a model. */
  replay?: string;
  /** Which conversation of the trace, from 1. */
  conversation?: string | number;
  inputs?: string[];
  stopOnEntry?: boolean;
  onLoaded?: (loaded: LoadedAgent) => void;
  /** Where the agent's compile diagnostics go (stderr by default). */
  diagnostics?: DiagnosticSink;
}

export interface OpenedSession {
  session: DebugSession;
  source: SourceLines;
  loaded: LoadedAgent;
  /** Stops the MCP servers the session's tools call: once the session is over. */
  close: () => Promise<void>;
}

export async function openSession(file: string, flags: ModelFlags, choices: SessionChoices): Promise<OpenedSession> {
  const loaded = await loadAgentGraph(file, { diagnostics: choices.diagnostics });
  choices.onLoaded?.(loaded);
  // Checked before any MCP server starts.
  const conversation = Number(choices.conversation ?? 1);
  if (!Number.isInteger(conversation) || conversation < 1)
    throw new CliError(`--conversation takes a number from 1, not '${choices.conversation}'`, 2);
  let replay: { replay: string; replaySource: string; conversation: number } | { model: ChatModel };
  if (choices.replay !== undefined) {
    if (flags.offline || flags.model !== undefined || flags.baseUrl !== undefined)
      throw new CliError("--replay answers from the recording: it takes no model flags", 2);
    replay = {
      replay: readText(choices.replay, "the trace "),
      replaySource: choices.replay,
      conversation: conversation - 1,
    };
  } else {
    replay = { model: (await chooseModel(flags, true)).model };
  }
  const at = { graph: loaded.graph, baseDir: loaded.baseDir, importer: loaded.source?.display ?? loaded.file };
  const { tools, actions } = await importHostCode(await bundleOf(at));
  // A replay answers for the model, not for the tools: they run again, MCP ones included.
  const mcp = await openMcpTools(loaded.graph, loaded.baseDir, flags);
  Object.assign(tools, mcp.tools);
  const source = new SourceLines(
    loaded.source?.display ?? loaded.graph.source?.file ?? loaded.file,
    loaded.source?.text ?? null,
  );
  let session: DebugSession;
  try {
    session = new DebugSession(loaded.graph, {
      ...replay,
      tools,
      actions,
      inputs: choices.inputs ?? [],
      stopOnEntry: choices.stopOnEntry ?? true,
      ...(source.available ? { sourceLines: source.count } : {}),
    });
  } catch (err) {
    await mcp.close();
    if (err instanceof RecordingError) throw new CliError(err.message);
    throw err;
  }
  return { session, source, loaded, close: mcp.close };
}
