import type { Command } from "commander";
import { addModelOptions } from "../agent-loading/model-options.js";
import type { ServeFlags } from "../actions/serve.js";
import { busyOption } from "./busy-option.js";
import { staleOption } from "./stale-option.js";
import { integer } from "./integer.js";
import { addAccessOptions } from "./access-options.js";
import { addBudgetOptions } from "./budget-options.js";

const collect = (value: string, previous: string[]) => [...previous, value];

export function registerServe(program: Command): void {
  const command = program
    .command("serve")
    .summary(
      "serve an agent over HTTP: a playground, the AI SDK chat protocol, AG-UI, a threads API, resumable streams",
    )
    .description(
      "serve an agent over HTTP on the threads of a store: the playground at / (talk to the agent, watch its graph run, its turns' memory, fork; none with --no-playground), POST /api/chat (the Vercel AI SDK UI message stream, for useChat and assistant-ui), POST /ag-ui (AG-UI), the threads API, the run event stream, /openapi.json (docs/serving.md); prints 'listening on http://HOST:PORT' once ready; SIGTERM drains it (no new turns, /readyz 503, runs in progress finish within --grace-ms) and it exits 0; a second signal stops it at once. Probes: /healthz, /readyz; Prometheus metrics: /metrics (docs/scaling.md)",
    )
    .argument(
      "<agent...>",
      "an agent (.ts, compiled first) or a graph (.json), or a folder of agents (each .ts file with a class that extends Autogram, in it or in a folder directly under it); several are served each under its name at /agents/NAME/, the first also at / (the default agent)",
    )
    .option(
      "--store <url>",
      "the store of threads: sqlite:PATH or postgres://... (default: AUTOGRAMS_STORE, else sqlite:.autograms/threads.db)",
    )
    .option("--port <n>", "the port (0: any free one)", "3000")
    .option("--host <host>", "the address to listen on; anything but loopback needs --token", "127.0.0.1");
  addAccessOptions(command)
    .option(
      "--cors <origin>",
      "let a browser app on this origin (https://app.example.com) call the API (repeatable; '*' any origin, only with a token)",
      collect,
      [],
    )
    .option(
      "--lease-ms <ms>",
      "how long a thread stays taken by a run that stops renewing it (a killed process): then another process may take it (default: the store URL's lease_ms, else 10000)",
      integer(100),
    )
    .option(
      "--grace-ms <ms>",
      "on SIGTERM, how long runs in progress may take to finish before they are stopped",
      integer(0),
      10_000,
    )
    .option(
      "--resume-window-ms <ms>",
      "how long after a run ends its stream can still be resumed; then its events are dropped from the store (its turn stays in the thread's history) and a resume is answered 410 run_expired (default 300000: five minutes)",
      integer(0),
    )
    .option(
      "--workers <n>",
      "worker threads that play the turns, so the server answers whatever a turn computes; an agent with no tool or action module of its own has its turns played in the server's thread until one proves CPU-heavy, then that thread's in the workers, which start then (0: always in the server's own thread, not with --watch; default: one per core)",
      integer(0),
    );
  addBudgetOptions(command)
    .option(
      "--turn-wall-ms <ms>",
      "a turn's wall-clock bound: milliseconds from its start to its end, waits for the model, tools and hooks included; over it the turn fails with turn_timeout, nothing committed, and the thread takes its next message (default 300000)",
      integer(1),
    )
    .addOption(
      busyOption(
        "a message for a thread with a run in progress: reject (409, the default) or enqueue (wait for it), interrupt or rollback (stop it)",
      ),
    )
    .addOption(
      staleOption(
        "a message for a thread that cannot resume on the agent (edited where the thread stands): refuse (422 stale_memory, the default; move it with autograms threads migrate) or restart (begin its conversation again)",
      ),
    )
    .option(
      "--watch",
      "build the agent again when its file or a module in its folder is saved: turns that start after run on the new build, threads that cannot resume on it are listed; a build that fails keeps the last good one serving. The turns are played in worker threads (never the server's own: not with --workers 0). A save that changes a tool or action module starts new workers, which load the modules again (their top-level code runs again), and the last build's workers end once their runs do; a save of the agent file alone makes the agent again in the workers there are, which keep their modules as loaded",
    )
    .option(
      "--no-typecheck",
      "do not type-check the agent with TypeScript's checker (by default its errors, with the nearest tsconfig.json, are errors of the build)",
    )
    .option(
      "--prices <file>",
      'what tokens cost: a JSON file of model names, each { "input": n, "output": n } per million tokens; the threads API and the playground show each call\'s, turn\'s and thread\'s cost beside its tokens (none for a model the file does not name)',
    )
    .option(
      "--titles",
      "name each thread after its first exchange with a short call of the model (shown in the threads list; made after the reply, never holding it up; a failed call leaves the title unset)",
    )
    .option(
      "--no-playground",
      "serve no playground: GET / and its files answer 404, like any unknown endpoint (an API-only deployment)",
    );
  addModelOptions(command).action(async (agents: string[], flags: ServeFlags) =>
    (await import("../actions/serve.js")).serveCommand(agents, flags),
  );
}
