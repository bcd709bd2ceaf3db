/**
 * The `experiments` table: a row per stored `autograms eval` run, its summary in columns (listed
 * without unpacking anything) and its report and graph as deflated JSON (read when one is shown).
 * Plain statements that both dialects run as written.
 */
import { randomBytes } from "node:crypto";
import type { Graph } from "@autograms/runtime";
import { StoreError } from "../errors.js";
import type { EvalReport } from "@autograms/runtime/eval";
import { checkExperiment, experimentKey } from "../arguments.js";
import type { Experiment, ExperimentInfo, ExperimentStore, NewExperiment } from "../experiments.js";
import { first, listing, num, optStr, type Row, type SqlDriver } from "./driver.js";
import { packJson, unpackJson } from "./packed-json.js";

/** The summary's fields, in the order of their columns (each field's name in snake case). */
const FIELDS = "id createdAt agent build sourceHash model casesFile cases runs passed failed ms comparedWith".split(
  " ",
) as (keyof ExperimentInfo)[];
const SUMMARY = FIELDS.map((f) => f.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)).join(", ");

/** The store's experiments, the base of its runs (RunLog) and so of SqlStore. */
export abstract class ExperimentTable implements ExperimentStore {
  protected constructor(
    protected readonly db: SqlDriver,
    protected readonly now: () => number,
  ) {}

  async saveExperiment(e: NewExperiment): Promise<ExperimentInfo> {
    checkExperiment(e);
    const { report, graph } = e;
    const passed = report.runs.filter((r) => r.pass).length;
    const info: ExperimentInfo = {
      id: e.id ?? randomBytes(4).toString("hex"),
      createdAt: this.now(),
      agent: report.agent,
      build: e.build,
      sourceHash: graph.source?.sha256 ?? null,
      model: e.model,
      casesFile: report.file,
      cases: report.cases.length,
      runs: report.runs.length,
      passed,
      failed: report.runs.length - passed,
      ms: Math.round(report.ms),
      comparedWith: e.comparedWith ?? null,
    };
    // An id given twice is the caller's mistake, said so rather than as the database's constraint.
    if (await first(this.db, "SELECT id FROM experiments WHERE id = ?", [info.id]))
      throw new StoreError("bad_request", `there is an experiment '${info.id}' already`);
    await this.db.run(
      `INSERT INTO experiments (${SUMMARY}, report, graph) VALUES (${FIELDS.map(() => "?").join(", ")}, ?, ?)`,
      [...FIELDS.map((f) => info[f]), packJson(report), packJson(graph)],
    );
    return info;
  }

  async experiment(id: string): Promise<Experiment | null> {
    experimentKey(id);
    const row = await first(this.db, `SELECT ${SUMMARY}, report, graph FROM experiments WHERE id = ?`, [id]);
    if (!row) return null;
    return {
      ...experimentInfo(row),
      report: unpackJson(row.report) as EvalReport,
      graph: unpackJson(row.graph) as Graph,
    };
  }

  async listExperiments(options: { limit?: number; agent?: string } = {}): Promise<ExperimentInfo[]> {
    const { where, limit, params } = listing(options, "agent = ?");
    const rows = await this.db.all(
      `SELECT ${SUMMARY} FROM experiments${where} ORDER BY created_at DESC, id${limit}`,
      params,
    );
    return rows.map(experimentInfo);
  }
}

function experimentInfo(row: Row): ExperimentInfo {
  return {
    id: String(row.id),
    createdAt: num(row.created_at),
    agent: String(row.agent),
    build: String(row.build),
    sourceHash: optStr(row.source_hash),
    model: String(row.model),
    casesFile: String(row.cases_file),
    cases: num(row.cases),
    runs: num(row.runs),
    passed: num(row.passed),
    failed: num(row.failed),
    ms: num(row.ms),
    comparedWith: optStr(row.compared_with),
  };
}
