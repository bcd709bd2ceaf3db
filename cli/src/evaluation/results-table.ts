/**
 * The table `autograms eval` prints: a row per expectation (case, turn, expectation, pass or fail,
 * where the turn replied, why), or with --repeat, a row per case with its pass rate and the
 * failures under it; then a summary line.
 */
import type { EvalReport } from "@autograms/runtime/eval";
import { plainText } from "../terminal/plain-text.js";
import { clip, table } from "./text-table.js";

export function resultsTable(report: EvalReport): string {
  const repeated = report.runs.some((r) => r.run > 1);
  const out: string[] = [];
  if (!repeated) {
    const rows = report.runs.flatMap((r) =>
      r.outcomes.map((o) => [
        clip(r.case, 32),
        o.turn === null ? "-" : String(o.turn),
        clip(o.expectation, 40),
        o.pass ? "pass" : "FAIL",
        (o.turn !== null && r.turns[o.turn - 1]?.replyAt) || "-",
        plainText(clip(o.reason.replace(/\s+/g, " "), 100)),
      ]),
    );
    out.push(table(["case", "turn", "expectation", "result", "replied at", "reason"], rows));
  } else {
    const rows = report.cases.map((c) => [
      clip(c.case, 32),
      String(c.runs),
      String(c.passed),
      `${Math.round((100 * c.passed) / Math.max(1, c.runs))}%`,
    ]);
    out.push(table(["case", "runs", "passed", "pass rate"], rows));
    const failures = report.runs.flatMap((r) =>
      r.outcomes
        .filter((o) => !o.pass)
        .map(
          (o) =>
            `  ${r.case} (run ${r.run})${o.turn === null ? "" : `, turn ${o.turn}`}: ${o.expectation}: ${plainText(o.reason)}`,
        ),
    );
    if (failures.length) out.push(`failures:\n${failures.join("\n")}\n`);
  }
  const outcomes = report.runs.flatMap((r) => r.outcomes);
  const failedRuns = report.runs.filter((r) => !r.pass).length;
  const runs = repeated ? `${report.runs.length} runs of ${report.cases.length} cases` : `${report.runs.length} cases`;
  out.push(
    `${report.agent}: ${runs}, ${report.runs.length - failedRuns} passed, ${failedRuns} failed; ` +
      `${outcomes.length} expectations, ${outcomes.filter((o) => !o.pass).length} failed; ${(report.ms / 1000).toFixed(2)} s\n`,
  );
  return out.join("\n");
}
