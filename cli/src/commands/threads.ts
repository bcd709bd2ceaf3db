import type { Command } from "commander";
import type { ThreadsFlags } from "../actions/threads.js";

const MCP_CONFIG = [
  "--mcp-config <file>",
  "the MCP servers the agent imports tools from (`mcp:NAME`; default: the .mcp.json beside the agent, once approved)",
] as const;

const APPROVE_MCP = [
  "--approve-mcp",
  "approve the .mcp.json beside the agent to start its servers, as it is now (remembered; an edit needs approving again)",
] as const;

const STORE = [
  "--store <url>",
  "the store: sqlite:PATH or postgres://... (default: AUTOGRAMS_STORE, else sqlite:.autograms/threads.db)",
] as const;

export function registerThreads(program: Command): void {
  const threads = program
    .command("threads")
    .summary("list, show, fork, migrate, export, delete and prune stored conversations")
    .description(
      "the conversations (threads) that `chat --store` keeps in a store: list, show, fork, migrate, export, delete, prune",
    );
  const run =
    (sub: string) =>
    async (...args: unknown[]) => {
      const command = args[args.length - 1] as Command;
      // Awaited, so that the command line ends when the command has (its exit code set, the store closed).
      await (await import("../actions/threads.js")).threadsCommand(sub, command.args, command.opts() as ThreadsFlags);
    };
  threads
    .command("list")
    .description("list the threads, the most recently active first")
    .option(...STORE)
    .option("--json", "print them as JSON")
    .option(
      "--agent <file>",
      "only this agent's threads, each checked against it: one whose agent changed where it stands is reported, not changed",
    )
    .option(...MCP_CONFIG)
    .option(...APPROVE_MCP)
    .action(run("list"));
  threads
    .command("show")
    .description("print a thread's turns, what the user said and what the agent replied")
    .argument("<id>", "the thread")
    .option(...STORE)
    .option("--json", "print { id, turns: [{ user, reply }] } as JSON")
    .action(run("show"));
  threads
    .command("fork")
    .description("make a new thread from the first N turns of one (time travel); prints the new thread's id")
    .argument("<id>", "the thread")
    .requiredOption("--at <N>", "the number of turns the new thread keeps (0: none)")
    .option("--id <new-id>", "the new thread's id (default: a new one)")
    .option(...STORE)
    .action(run("fork"));
  threads
    .command("migrate")
    .description(
      "move a thread that cannot resume on the edited agent (stale_memory) to a node of it that a conversation waits at, keeping its variables and turns; its next message answers that node. Refused, saying why, when the node reads variables the thread lacks or lies in a function the thread is not inside",
    )
    .argument("<id>", "the thread")
    .requiredOption("--to <node>", "the node's name (as the graph names it: autograms graph shows them)")
    .requiredOption("--agent <file>", "the agent (.ts, compiled first) or graph (.json) the thread goes on with")
    .option(
      "--take-prompt",
      "the thread takes the prompts the agent sets now (an edited setPrompt text), in place of those its memory keeps",
    )
    .option(...MCP_CONFIG)
    .option(...APPROVE_MCP)
    .option(...STORE)
    .action(run("migrate"));
  threads
    .command("export")
    .description("print a thread as JSON: its turns (with memory deltas and trace events) and its memory")
    .argument("<id>", "the thread")
    .option(...STORE)
    .option("-o, --out <file>", "write it to a file instead")
    .action(run("export"));
  threads
    .command("delete")
    .description("delete a thread and everything stored of it (asks first on a terminal)")
    .argument("<id>", "the thread")
    .option(...STORE)
    .option("-y, --yes", "do not ask, even on a terminal")
    .action(run("delete"));
  threads
    .command("prune")
    .description("retention: delete threads idle for longer than a duration, or trim long histories")
    .option("--older-than <duration>", "delete the threads with no turn for this long: 30d, 12h, 15m, 90s")
    .option(
      "--keep-turns <N>",
      "trim each thread's history to its last N turns or a few more (from a snapshot on); the thread still resumes",
    )
    .option(...STORE)
    .action(run("prune"));
}
