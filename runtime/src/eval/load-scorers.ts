/**
 * Loads the scorers a cases file names, before any case runs: a module that cannot be loaded or an
 * export that is not a scorer is reported at the line that names it.
 */
import { dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { CasesFile, ScorerRef } from "./cases.js";
import { fileProblem } from "./messages.js";
import { scorerKey } from "./run-cases.js";
import { isScorer, type Scorer } from "./scorer.js";

/** Imports a scorers' module by its absolute path (the command line bundles TypeScript first). */
export type ModuleImporter = (path: string) => Promise<Record<string, unknown>>;

const importByUrl: ModuleImporter = (path) => import(pathToFileURL(path).href) as Promise<Record<string, unknown>>;

export async function loadScorers(
  cases: CasesFile,
  importModule: ModuleImporter = importByUrl,
): Promise<Map<string, Scorer>> {
  const wanted = new Map<string, { ref: ScorerRef; line: number }>();
  for (const c of cases.cases) {
    const refs = [...c.scorers, ...(c.simulate?.expect.scorers ?? [])].map((ref) => ({ ref, line: c.line }));
    for (const t of c.turns)
      refs.push(...(t.expect.scorers ?? []).map((ref) => ({ ref, line: t.lines.scorers ?? t.line })));
    for (const r of refs) if (!wanted.has(scorerKey(r.ref))) wanted.set(scorerKey(r.ref), r);
  }
  const modules = new Map<string, Promise<Record<string, unknown>>>();
  const scorers = new Map<string, Scorer>();
  for (const [key, { ref, line }] of wanted) {
    const path = resolve(dirname(cases.file), ref.module);
    let loaded = modules.get(path);
    if (!loaded) modules.set(path, (loaded = importModule(path)));
    let exports: Record<string, unknown>;
    try {
      exports = await loaded;
    } catch (err) {
      throw fileProblem(
        "no_scorer_module",
        { file: cases.file, line },
        ref.module,
        err instanceof Error ? err.message : String(err),
      );
    }
    const scorer = exports[ref.name ?? "default"];
    if (!isScorer(scorer)) {
      const has = Object.entries(exports).flatMap(([name, v]) => (isScorer(v) ? [name] : []));
      throw fileProblem("no_scorer", { file: cases.file, line }, key, has);
    }
    scorers.set(key, scorer);
  }
  return scorers;
}
