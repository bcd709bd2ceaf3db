import { createInterface } from "node:readline";
import { getHeapStatistics } from "node:v8";
import type { TraceSink } from "@autograms/runtime";
import { CliError } from "../agent-loading/cli-error.js";
import { sourceName, type LoadedAgent } from "../agent-loading/load-graph.js";
import type { ModelFlags } from "../agent-loading/model-options.js";
import { chooseModel } from "../agent-loading/model.js";
import { openAgent } from "../agent-loading/open-agent.js";
import { workerBuilds, type WorkerBuild } from "../agent-loading/worker-builds.js";
import { CurrentBuild } from "../live/current-build.js";
import { reporting } from "../agent-loading/report-error.js";
import { rebuildOnSave, type Build } from "../live/rebuilds.js";
import { closeAtEnd } from "../agent-loading/command-scope.js";
import { memoryFileSession } from "../conversation/memory-file-session.js";
import { replyPrinter } from "../conversation/reply-printer.js";
import type { ChatBuild, ChatSession } from "../conversation/session.js";
import { threadSession, type ThreadFlags } from "../conversation/thread-session.js";
import { logPrinter } from "../terminal/print-log.js";
import { fanOut, JsonlTraceWriter } from "../trace/jsonl-writer.js";
import { trimToLastTurn } from "../trace/resume-trace.js";

export interface ChatFlags extends ModelFlags, ThreadFlags {
  memory?: string;
  trace?: string;
  watch?: boolean;
  /** false with --no-typecheck. */
  typecheck?: boolean;
}

export function chatCommand(file: string, flags: ChatFlags): Promise<void> {
  return reporting("chat", (onLoaded) => chat(file, flags, onLoaded), { traced: true });
}

async function chat(file: string, flags: ChatFlags, onLoaded: (loaded: LoadedAgent) => void): Promise<void> {
  const threaded = flags.store !== undefined || flags.thread !== undefined;
  if (threaded && flags.memory !== undefined)
    throw new CliError(
      "--memory keeps a conversation in a file, --store and --thread in a store: give one or the other",
      2,
    );
  if (!threaded && flags.busy !== undefined)
    throw new CliError("--busy applies to a thread of a store: give --store or --thread too", 2);
  // Replies stream to a terminal; a pipe gets each reply whole, exactly as it ends.
  const stream = flags.stream ?? process.stdout.isTTY === true;
  const { first, loaded, next } = await chatBuilds(file, { ...flags, stream }, onLoaded);
  const { agent } = first;
  // The build each turn runs on: with --watch, the latest one the conversation can resume on.
  const builds = new CurrentBuild<ChatBuild>(first);
  // However the command ends (a thread that cannot go on, end of input), its workers end with it.
  closeAtEnd(() => builds.close());
  const session: ChatSession = threaded
    ? await threadSession(agent, flags)
    : memoryFileSession(agent, flags.memory, flags.onStale);
  if (session.restarted !== undefined)
    process.stderr.write(
      `(the saved conversation cannot resume on this agent: ${session.restarted}; it begins again)\n`,
    );
  const unwatch = next
    ? rebuildOnSave(
        file,
        next,
        async (built) => {
          const { problem, prompts } = await session.check(built.agent);
          if (problem !== null && flags.onStale !== "restart") {
            process.stderr.write(
              `(the conversation cannot resume on the new build: ${problem}; it goes on with the previous build (--on-stale restart begins it again on the new one))\n`,
            );
            return built.close();
          }
          await builds.use(built);
          process.stderr.write(
            problem === null
              ? "(the next turn runs on the new build)\n"
              : `(the conversation cannot resume on the new build: ${problem}; the next turn begins it again)\n`,
          );
          // A prompt is memory: the edited text reaches the conversation only when it is taken.
          if (problem === null && prompts.changes.length > 0)
            process.stderr.write(
              `(the conversation keeps its old prompt of ${prompts.changes.map((c) => (c.function === null ? "main" : `'${c.function}'`)).join(", ")}: the edited setPrompt text reaches new conversations${prompts.take ? `; ${prompts.take} gives it to this one` : ""})\n`,
            );
        },
        undefined,
        (built) => built.close(),
      )
    : () => {};

  // A resumed conversation's trace goes on in the same file, so the file replays all of it.
  const resumed = session.resumed !== null;
  if (flags.trace !== undefined && resumed) trimToLastTurn(flags.trace);
  const writer =
    flags.trace === undefined ? null : new JsonlTraceWriter(flags.trace, sourceName(loaded), { append: resumed });
  // What the agent's code prints goes to stderr as it runs, whether or not a trace is written.
  const trace: TraceSink | undefined = fanOut(writer?.sink(), logPrinter(sourceName(loaded)));

  const printer = replyPrinter(process.stdout, agent.config.agentName, stream);
  const pause = yieldingEvery(YIELD_EVERY_MS);
  const turn = async (text: string | null) => {
    try {
      return await builds.during((build) => session.reply(build, text, { trace, onText: printer.onText, pause }));
    } catch (err) {
      printer.abandon();
      throw err;
    }
  };

  const interactive = process.stdin.isTTY === true;
  const rl = createInterface({
    input: process.stdin,
    output: interactive ? process.stdout : undefined,
    terminal: interactive,
  });
  rl.setPrompt("You: ");
  // Ctrl-C on a terminal: the turns so far are saved; the one under way is dropped (and a
  // store's thread released for the next process). The turn stops at its next step (it lets the
  // process hear the signal every few milliseconds); one that does not stop within the grace
  // period (a tool that never returns) is left to its lease, and the process ends all the same.
  const interrupted = (code: number) => () => {
    printer.abandon();
    process.stderr.write("\n");
    setTimeout(() => process.exit(code), STOP_GRACE_MS).unref();
    void session.stop().finally(() => process.exit(code));
  };
  rl.on("SIGINT", interrupted(130));
  // Not on a terminal (a supervisor, a pipe), the signals themselves.
  process.once("SIGINT", interrupted(130)).once("SIGTERM", interrupted(143));
  // Taken before the first await, so lines piped in while the agent is busy wait in its queue.
  const lines = rl[Symbol.asyncIterator]();

  try {
    if (session.resumed === null) {
      const first = await turn(null);
      printer.reply(first.reply);
      if (first.done) return ended();
    } else {
      process.stderr.write(`${session.resumed.note}\n`);
      if (session.resumed.lastReply !== undefined) printer.reply(session.resumed.lastReply);
    }
    for (;;) {
      if (interactive) rl.prompt();
      const next = await lines.next();
      if (next.done || next.value.trim() === "/quit") return;
      const r = await turn(next.value);
      printer.reply(r.reply);
      if (r.done) return ended();
    }
  } finally {
    unwatch();
    rl.close();
    writer?.close();
    await session.close();
  }
}

/**
 * The build chat starts on, and with --watch how to make the next on a save. Without --watch, the
 * agent in this thread. With it, each build in a worker thread (worker-builds.ts, as `serve
 * --watch`): this thread never imports the agent's tool and action modules, so a save leaves no
 * copy of them loaded; the worker of a replaced build ends once no turn plays on it.
 */
async function chatBuilds(
  file: string,
  flags: ChatFlags,
  onLoaded: (loaded: LoadedAgent) => void,
): Promise<{ first: ChatBuild; loaded: LoadedAgent; next?: Build<ChatBuild> }> {
  if (!flags.watch) {
    const { agent, loaded } = await openAgent(file, flags, {
      modelRequired: true,
      onLoaded,
      typeCheck: flags.typecheck !== false,
    });
    return { first: { agent, close: () => agent.close() }, loaded };
  }
  const { offline, offlinePace, model, baseUrl, apiKeyEnv, mcpConfig, approveMcp, stream } = flags;
  const modelFlags: ModelFlags = { offline, offlinePace, model, baseUrl, apiKeyEnv, mcpConfig, approveMcp, stream };
  // The model's flags are checked here, before the worker starts.
  await chooseModel(modelFlags, true);
  // A turn in the worker may take as long and as much as one in this thread would: no budget
  // beyond this thread's own heap limit.
  const make = workerBuilds(file, {
    modelFlags,
    budgets: { timeMs: Infinity, memoryMb: Infinity },
    size: 1,
    heapLimitMb: Math.round(getHeapStatistics().heap_size_limit / 2 ** 20),
    typeCheck: flags.typecheck !== false,
  });
  const chatBuild = ({ agent, player }: WorkerBuild): ChatBuild => ({
    agent,
    player,
    close: async () => void (await Promise.all([agent.close(), player.close()])),
  });
  const made = await make({ onLoaded });
  return {
    first: chatBuild(made),
    loaded: made.loaded,
    next: async (diagnostics) => chatBuild(await make({ diagnostics })),
  };
}

function ended(): void {
  process.stderr.write("(the conversation has ended)\n");
}

/** How long a stopped turn may take to let go of its thread before the process ends anyway. */
const STOP_GRACE_MS = 5000;
/** How long a turn may compute before it lets the event loop turn (and a signal be heard). */
const YIELD_EVERY_MS = 20;

/** A pause hook that yields to the event loop once `ms` of work have passed since it last did. */
function yieldingEvery(ms: number): () => Promise<void> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < ms) return;
    await new Promise((resolve) => setImmediate(resolve));
    last = performance.now();
  };
}
