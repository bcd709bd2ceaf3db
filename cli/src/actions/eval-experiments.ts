/** `autograms eval list` and `autograms eval show`: the experiments `autograms eval` stored. */
import { openStore, StoreError, type Experiment, type Store } from "@autograms/store";
import { CliError } from "../agent-loading/cli-error.js";
import { reporting } from "../agent-loading/report-error.js";
import { storeUrl } from "../conversation/store-url.js";
import { comparisonReport } from "../evaluation/comparison.js";
import { experimentChanges, experimentHeading, experimentLabel, experimentsTable } from "../evaluation/experiments.js";
import { resultsTable } from "../evaluation/results-table.js";

export interface ExperimentFlags {
  store?: string;
  json?: boolean;
  agent?: string;
  limit?: number;
  compare?: string;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

export function experimentsCommand(sub: "list" | "show", args: string[], flags: ExperimentFlags): Promise<void> {
  return reporting(`eval ${sub}`, async () => {
    const store = await openStore(storeUrl(flags.store));
    try {
      return await (sub === "list" ? list(store, flags) : show(store, args[0]!, flags));
    } catch (err) {
      throw err instanceof StoreError ? new CliError(err.message) : err;
    } finally {
      await store.close();
    }
  });
}

async function list(store: Store, flags: ExperimentFlags): Promise<void> {
  const experiments = await store.listExperiments({
    ...(flags.agent !== undefined && { agent: flags.agent }),
    ...(flags.limit !== undefined && { limit: flags.limit }),
  });
  if (flags.json) return void process.stdout.write(json(experiments));
  if (experiments.length === 0)
    return void process.stderr.write(`(no experiments${flags.agent ? ` of ${flags.agent}` : ""} in ${store.where})\n`);
  process.stdout.write(experimentsTable(experiments));
}

async function found(store: Store, id: string): Promise<Experiment> {
  const e = await store.experiment(id);
  if (!e) throw new CliError(`no experiment '${id}' in ${store.where} (autograms eval list shows them)`);
  return e;
}

/**
 * The experiment's table as it was printed when it ran, then what changed from the experiment
 * `--compare` names, or else from the one it was run beside.
 */
async function show(store: Store, id: string, flags: ExperimentFlags): Promise<number> {
  const e = await found(store, id);
  const otherId = flags.compare ?? e.comparedWith;
  const other = otherId === null ? null : await found(store, otherId);
  const changes = other && experimentChanges(other, e);
  if (flags.json) {
    const { graph: _, ...shown } = e;
    process.stdout.write(json(other ? { ...shown, comparison: { with: other.id, changes } } : shown));
  } else {
    process.stdout.write(experimentHeading(e) + resultsTable(e.report));
    if (other) process.stdout.write(comparisonReport(experimentLabel(other), changes!, e.report.cases.length));
  }
  return e.report.pass ? 0 : 1;
}
