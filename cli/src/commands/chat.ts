import type { Command } from "commander";
import { addModelOptions } from "../agent-loading/model-options.js";
import type { ChatFlags } from "../actions/chat.js";
import { busyOption } from "./busy-option.js";
import { staleOption } from "./stale-option.js";

export function registerChat(program: Command): void {
  const command = program
    .command("chat")
    .summary("talk with an agent in the terminal")
    .description(
      "talk with an agent in the terminal, one line per turn (stdin may be piped); the agent speaks first; /quit or end of input stops",
    )
    .argument("<file>", "an agent (.ts, compiled first) or a graph (.json)")
    .option(
      "--memory <file>",
      "resume the conversation saved in this file, if it exists, and save it there after every turn (one process at a time: <file>.lock)",
    )
    .option(
      "--store [url]",
      "keep the conversation as a thread of a store: sqlite:PATH or postgres://... (alone: AUTOGRAMS_STORE, else sqlite:.autograms/threads.db)",
    )
    .option(
      "--thread <id>",
      "the thread to go on with, or to start with this id (default: a new id, printed on stderr); implies --store",
    )
    .addOption(
      busyOption(
        "when another process is running a turn of the thread: reject (exit 1, the default) or enqueue (wait for it), interrupt or rollback (stop it)",
      ),
    )
    .addOption(
      staleOption(
        "a saved conversation (--memory, --thread) that cannot resume on the agent, edited where it stands: refuse (exit 1, the default) or restart (begin it again)",
      ),
    )
    .option(
      "--watch",
      "build the agent again when its file or a module in its folder is saved: the next turn runs on the new build if the conversation can resume on it; a build that fails is reported and the last good one goes on. The turns are played in a worker thread, which loads the tool and action modules: a save that changes a module starts a new worker, which loads them again (their top-level code runs again), and the last one ends; a save of the agent file alone keeps the worker and its modules as loaded",
    );
  addModelOptions(command)
    .option(
      "--no-typecheck",
      "do not type-check the agent with TypeScript's checker (by default its errors, with the nearest tsconfig.json, are errors of the build)",
    )
    .option(
      "--stream",
      "print each reply as the model writes it, redrawing it when it is generated again (the default when stdout is a terminal; OpenAI-compatible models then stream)",
    )
    .option(
      "--no-stream",
      "print each reply whole once it is done (the default when stdout is not a terminal, so piped output holds only final replies)",
    )
    .option(
      "--trace <file>",
      "write every step as one JSON event per line (docs/runtime.md); a conversation resumed with --memory goes on in the same file",
    )
    .action(async (file: string, flags: ChatFlags) => (await import("../actions/chat.js")).chatCommand(file, flags));
}
