import { createInterface } from "node:readline/promises";
import {
  checkThreads,
  migrateThread,
  openStore,
  StoreError,
  type Store,
  type ThreadCheck,
  type ThreadInfo,
  type TurnStatus,
} from "@autograms/store";
import { settingsOfTrace, settingsText, type PromptChange } from "@autograms/runtime";
import { CliError } from "../agent-loading/cli-error.js";
import { openAgent } from "../agent-loading/open-agent.js";
import { reporting } from "../agent-loading/report-error.js";
import { storeUrl } from "../conversation/store-url.js";
import { writeOutput } from "../write-output.js";

export interface ThreadsFlags {
  store?: string;
  json?: boolean;
  at?: string;
  id?: string;
  out?: string;
  yes?: boolean;
  olderThan?: string;
  keepTurns?: string;
  agent?: string;
  mcpConfig?: string;
  approveMcp?: boolean;
  to?: string;
  takePrompt?: boolean;
}

type Action = (store: Store, args: string[], flags: ThreadsFlags) => Promise<void>;

const ACTIONS: Record<string, Action> = {
  list,
  show,
  fork,
  migrate,
  export: exportThread,
  delete: deleteThread,
  prune,
};

export function threadsCommand(sub: string, args: string[], flags: ThreadsFlags): Promise<void> {
  return reporting(`threads ${sub}`, async () => {
    const work = ACTIONS[sub]!;
    // Usage is checked before the store is opened (which would make the default file).
    if (sub === "prune") pruneOptions(flags);
    if (sub === "fork") turnCount(flags.at!);
    const store = await openStore(storeUrl(flags.store));
    try {
      await work(store, args, flags);
    } catch (err) {
      throw err instanceof StoreError ? new CliError(err.message) : err;
    } finally {
      await store.close();
    }
  });
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

async function list(store: Store, _args: string[], flags: ThreadsFlags): Promise<void> {
  let threads = await store.listThreads();
  let checks: Map<string, ThreadCheck> | null = null;
  if (flags.agent !== undefined) {
    const { agent } = await openAgent(
      flags.agent,
      { mcpConfig: flags.mcpConfig, approveMcp: flags.approveMcp },
      { modelRequired: false },
    );
    checks = new Map((await checkThreads(store, agent)).map((c) => [c.id, c]));
    threads = threads.filter((t) => checks!.has(t.id));
  }
  const check = (t: ThreadInfo) => checks?.get(t.id);
  if (flags.json) return void process.stdout.write(json(threads.map((t) => (checks ? { ...t, check: check(t) } : t))));
  if (threads.length === 0)
    return void process.stderr.write(`(no threads${flags.agent ? ` of ${flags.agent}` : ""} in ${store.where})\n`);
  for (const t of threads) {
    const problem = check(t)?.problem;
    const stale = problem ? `  (cannot resume: ${problem.code}: ${problem.message})` : "";
    const prompts = check(t)?.prompts.length ? `  (${promptNote(check(t)!.prompts)})` : "";
    process.stdout.write(
      `${t.id}  ${t.agent ?? "-"}  ${turns(t.version)}  ${new Date(t.updatedAt).toISOString()}${status(t)}${stale}${prompts}\n`,
    );
  }
}

/** What a thread whose frames hold an edited agent's old prompts is told. */
function promptNote(changes: PromptChange[]): string {
  const where = changes.map((c) => (c.function === null ? "main" : `'${c.function}'`)).join(", ");
  return `keeps the old prompt of ${where}: the agent's setPrompt text changed; threads migrate --take-prompt gives it the new one`;
}

const turns = (n: number) => `${n} turn${n === 1 ? "" : "s"}`;

function status(t: ThreadInfo): string {
  const notes = [];
  if (t.running) notes.push(`running: ${t.running.owner}`);
  if (t.done) notes.push("ended");
  if (t.forkedFrom) notes.push(`forked from ${t.forkedFrom.id} at turn ${t.forkedFrom.turn}`);
  if (t.firstSeq > 1) notes.push(`turns before ${t.firstSeq} pruned`);
  return notes.length ? `  (${notes.join("; ")})` : "";
}

/** What `threads show` says of a turn that is not the conversation's as it ran. */
const TURN_NOTES: Record<TurnStatus, string> = {
  ok: "",
  interrupted: " (interrupted: no reply)",
  replaced: " (replaced: answered again by a later turn)",
};

async function show(store: Store, [id]: string[], flags: ThreadsFlags): Promise<void> {
  const info = await store.thread(id!);
  if (!info) throw new CliError(`no thread '${id}' in ${store.where}`);
  const history = await store.turns(id!);
  if (flags.json)
    return void process.stdout.write(
      json({
        id,
        turns: history.map((t) => {
          const settings = settingsOfTrace(t.trace);
          return { user: t.user, reply: t.reply, ...(settings && { settings }) };
        }),
      }),
    );
  process.stdout.write(`thread ${id}: ${info.agent ?? "no agent yet"}, ${turns(info.version)}${status(info)}\n`);
  for (const t of history) {
    // The model settings chosen for the turn (the studio's), when it was not played as the server started.
    const settings = settingsOfTrace(t.trace);
    process.stdout.write(`\n#${t.seq}${TURN_NOTES[t.status]}${settings ? ` (${settingsText(settings)})` : ""}\n`);
    if (t.user !== null) process.stdout.write(`You: ${t.user}\n`);
    if (t.reply !== null) process.stdout.write(`Agent: ${t.reply}\n`);
  }
}

function turnCount(text: string): number {
  if (!/^\d+$/.test(text)) throw new CliError(`--at takes a number of turns (0, 1, 2, ...), not '${text}'`, 2);
  return Number(text);
}

async function fork(store: Store, [id]: string[], flags: ThreadsFlags): Promise<void> {
  const made = await store.fork(id!, turnCount(flags.at!), flags.id);
  process.stdout.write(`${made.id}\n`);
  process.stderr.write(
    `(thread ${made.id}: the first ${turns(made.version)} of ${id}; continue it with chat --thread ${made.id})\n`,
  );
}

async function migrate(store: Store, [id]: string[], flags: ThreadsFlags): Promise<void> {
  const { agent } = await openAgent(
    flags.agent!,
    { mcpConfig: flags.mcpConfig, approveMcp: flags.approveMcp },
    { modelRequired: false },
  );
  const takePrompts = flags.takePrompt === true;
  const { turn, memory } = await migrateThread(store, agent, id!, flags.to!, { takePrompts });
  const taken = takePrompts ? "; its prompts are the agent's own now" : "";
  process.stderr.write(
    `(thread ${id} now waits at '${flags.to}' of ${agent.graph.agent}, its variables and turns kept (turn ${turn.seq} records the move${taken}); its next message answers that node)\n`,
  );
  const old = agent.promptChanges(memory);
  if (old.length) process.stderr.write(`(thread ${id} ${promptNote(old)})\n`);
}

async function exportThread(store: Store, [id]: string[], flags: ThreadsFlags): Promise<void> {
  writeOutput(json(await store.exportThread(id!)), flags.out, "thread exported");
}

async function deleteThread(store: Store, [id]: string[], flags: ThreadsFlags): Promise<void> {
  const info = await store.thread(id!);
  if (!info) throw new CliError(`no thread '${id}' in ${store.where}`);
  // Asked only of a person at a terminal; a script deletes without a flag.
  if (!flags.yes && process.stdin.isTTY && process.stderr.isTTY) {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    const answer = await rl.question(`delete thread ${id} (${turns(info.version)})? [y/N] `);
    rl.close();
    if (!/^y(es)?$/i.test(answer.trim())) return void process.stderr.write("(nothing deleted)\n");
  }
  if (!(await store.deleteThread(id!))) throw new CliError(`no thread '${id}' in ${store.where}`);
  process.stderr.write(`(deleted thread ${id})\n`);
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

function duration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d|w)$/.exec(text.trim());
  if (!m) throw new CliError(`--older-than takes a duration with its unit (90s, 15m, 12h, 30d, 2w), not '${text}'`, 2);
  return Number(m[1]) * UNITS[m[2]!]!;
}

function pruneOptions(flags: ThreadsFlags): { olderThanMs?: number; keepTurns?: number } {
  if (flags.olderThan === undefined && flags.keepTurns === undefined)
    throw new CliError("prune needs --older-than <duration> or --keep-turns <N>", 2);
  if (flags.keepTurns !== undefined && !/^\d+$/.test(flags.keepTurns))
    throw new CliError(`--keep-turns takes a number, not '${flags.keepTurns}'`, 2);
  return {
    ...(flags.olderThan === undefined ? {} : { olderThanMs: duration(flags.olderThan) }),
    ...(flags.keepTurns === undefined ? {} : { keepTurns: Number(flags.keepTurns) }),
  };
}

async function prune(store: Store, _args: string[], flags: ThreadsFlags): Promise<void> {
  const r = await store.prune(pruneOptions(flags));
  process.stdout.write(
    `pruned ${r.threadsDeleted} thread${r.threadsDeleted === 1 ? "" : "s"} and ${turns(r.turnsDeleted)}\n`,
  );
}
