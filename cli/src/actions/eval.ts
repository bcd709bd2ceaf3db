import { AgentNames, compareReports, evaluateFile, toJunit, type EvalReport } from "@autograms/runtime/eval";
import type { Agent, ChatModel } from "@autograms/runtime";
import { openStore, parseStoreUrl, StoreError, type NewExperiment } from "@autograms/store";
import { CliError } from "../agent-loading/cli-error.js";
import { writeText } from "../agent-loading/files.js";
import { storeUrl } from "../conversation/store-url.js";
import { replayReport, replayThreads } from "../evaluation/thread-replay.js";
import type { LoadedAgent } from "../agent-loading/load-graph.js";
import { chooseModel } from "../agent-loading/model.js";
import type { ModelFlags } from "../agent-loading/model-options.js";
import { openAgent } from "../agent-loading/open-agent.js";
import { reporting } from "../agent-loading/report-error.js";
import { comparisonReport } from "../evaluation/comparison.js";
import { resultsTable } from "../evaluation/results-table.js";
import { importScorerModule } from "../evaluation/scorer-modules.js";
import { gitBuild, gitRevisionOf } from "../evaluation/git-build.js";
import { modelName } from "../evaluation/model-name.js";

export interface EvalFlags extends ModelFlags {
  concurrency: number;
  repeat: number;
  junit?: string;
  json?: string;
  judgeModel?: string;
  compare?: string;
  threads?: string | true;
  since?: string;
  strict?: boolean;
  /** Where experiments are kept: a URL, or false (`--no-store`) to keep none; default the CLI's store. */
  store?: string | false;
}

export function evalCommand(agentFile: string, casesFile: string | undefined, flags: EvalFlags): Promise<void> {
  return reporting("eval", (onLoaded) => {
    if (flags.threads !== undefined) {
      if (casesFile !== undefined) throw new CliError("give a cases file or --threads, not both", 2);
      if (flags.compare !== undefined) throw new CliError("--compare goes with a cases file, not --threads", 2);
      if (flags.store !== undefined)
        throw new CliError("--store and --no-store go with a cases file (--threads names the store to replay)", 2);
      return replay(agentFile, flags, onLoaded);
    }
    if (flags.since !== undefined || flags.strict) throw new CliError("--since and --strict go with --threads", 2);
    if (casesFile === undefined) throw new CliError("give a cases file, or --threads to replay stored threads", 2);
    return evaluate(agentFile, casesFile, flags, onLoaded);
  });
}

async function replay(agentFile: string, flags: EvalFlags, onLoaded: (loaded: LoadedAgent) => void): Promise<number> {
  const since = flags.since === undefined ? undefined : Date.parse(flags.since);
  if (since !== undefined && Number.isNaN(since))
    throw new CliError(`--since takes a date (2026-12-01, or with a time: 2026-12-01T09:00Z), not '${flags.since}'`, 2);
  // Strict replay answers from the recordings: no model is needed then.
  const { agent } = await openAgent(agentFile, flags, { modelRequired: !flags.strict, onLoaded });
  const store = await openStore(storeUrl(flags.threads));
  try {
    const results = await replayThreads(store, agent, {
      ...(since !== undefined && { since }),
      strict: !!flags.strict,
    });
    process.stdout.write(replayReport(agent.graph.agent, results, !!flags.strict));
    if (flags.json !== undefined) writeText(flags.json, `${JSON.stringify(results, null, 2)}\n`, "the results ");
    return results.some((r) => r.divergence) ? 1 : 0;
  } catch (err) {
    throw err instanceof StoreError ? new CliError(err.message) : err;
  } finally {
    await store.close();
  }
}

async function evaluate(
  agentFile: string,
  casesFile: string,
  flags: EvalFlags,
  onLoaded: (loaded: LoadedAgent) => void,
): Promise<number> {
  const { agent } = await openAgent(agentFile, flags, { modelRequired: true, onLoaded });
  const judge = flags.judgeModel === undefined ? undefined : await judgeModel(flags, flags.judgeModel);
  const options = {
    concurrency: flags.concurrency,
    repeat: flags.repeat,
    importModule: importScorerModule,
    ...(judge && { judge }),
  };
  // A store URL that names no store stops the command before the cases run; the store is opened
  // after them, so a command that fails earlier (a problem of the cases file) makes no database.
  const url = flags.store === false ? null : storeUrl(flags.store);
  if (url !== null) checkedUrl(url);
  // The other build first: a file that does not load stops the command before any case runs twice.
  const other = flags.compare === undefined ? undefined : await otherBuild(agentFile, flags.compare, flags);
  try {
    const report = await evaluateFile(agent, casesFile, options);
    process.stdout.write(resultsTable(report));
    let baseline: EvalReport | undefined;
    if (other && flags.compare !== undefined) {
      baseline = await evaluateFile(other.agent, casesFile, options);
      const changes = compareReports(baseline, report, {
        before: new AgentNames(other.agent.graph),
        after: new AgentNames(agent.graph),
      });
      process.stdout.write(comparisonReport(flags.compare, changes, report.cases.length));
    }
    if (flags.json !== undefined) writeText(flags.json, `${JSON.stringify(report, null, 2)}\n`, "the results ");
    if (flags.junit !== undefined) writeText(flags.junit, toJunit(report), "the JUnit report ");
    if (url !== null) {
      const here = { build: agentFile, model: modelName(flags), report, graph: agent.graph };
      await keep(url, here, other && baseline && { ...other, report: baseline, graph: other.agent.graph });
    }
    return report.pass ? 0 : 1;
  } finally {
    other?.dispose?.();
  }
}

type Kept = Omit<NewExperiment, "comparedWith">;

function checkedUrl(url: string): void {
  try {
    parseStoreUrl(url);
  } catch (err) {
    throw err instanceof StoreError ? new CliError(`--store: ${err.message}`, 2) : err;
  }
}

/** Stores this build's experiment, after the other build's when there is one (this one names it). */
async function keep(url: string, here: Kept, there?: Kept): Promise<void> {
  const store = await openStore(url).catch(storeFailed);
  try {
    const before = there && (await store.saveExperiment(there));
    const saved = await store.saveExperiment({ ...here, comparedWith: before?.id ?? null });
    const also = before ? ` (and the other build's as ${before.id})` : "";
    process.stderr.write(`experiment ${saved.id} stored in ${store.where}${also}: autograms eval show ${saved.id}\n`);
  } catch (err) {
    storeFailed(err);
  } finally {
    await store.close();
  }
}

function storeFailed(err: unknown): never {
  if (err instanceof StoreError)
    throw new CliError(`the experiment was not stored (--no-store runs without): ${err.message}`);
  throw err;
}

/** Another build to compare with, as the store names it; a git revision's copy is removed by `dispose`. */
interface OtherBuild {
  agent: Agent;
  build: string;
  model: string;
  dispose?: () => void;
}

/**
 * The build `--compare` names: another agent or graph file, a git revision of the agent
 * (`git:REV`, `REV:PATH`), or `model:NAME`, this agent on another model.
 */
async function otherBuild(agentFile: string, compare: string, flags: EvalFlags): Promise<OtherBuild> {
  if (compare.startsWith("model:")) {
    const model = compare.slice("model:".length);
    const { offline: _, ...rest } = flags;
    const modelFlags = model === "offline" ? { ...rest, offline: true } : { ...rest, model };
    const { agent } = await openAgent(agentFile, modelFlags, { modelRequired: true });
    return { agent, build: agentFile, model: modelName(modelFlags) };
  }
  const revision = gitRevisionOf(compare, agentFile);
  if (revision) {
    const copy = await gitBuild(revision.rev, revision.path);
    try {
      const { agent } = await openAgent(copy.file, flags, { modelRequired: true });
      return { agent, build: copy.label, model: modelName(flags), dispose: copy.dispose };
    } catch (err) {
      copy.dispose();
      throw err;
    }
  }
  return {
    agent: (await openAgent(compare, flags, { modelRequired: true })).agent,
    build: compare,
    model: modelName(flags),
  };
}

/** The judge's model, named as --model names the agent's (with the same server and key flags). */
async function judgeModel(flags: EvalFlags, name: string): Promise<ChatModel> {
  const chosen =
    name === "offline"
      ? await chooseModel({ offline: true }, true)
      : await chooseModel({ model: name, baseUrl: flags.baseUrl, apiKeyEnv: flags.apiKeyEnv }, true);
  return chosen.model;
}
