/** An evaluation's report as JUnit XML, which CI systems show: a test case per case run, its failed expectations as failures. */
import type { EvalReport } from "./run-cases.js";

const escape = (text: string) =>
  text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");

export function toJunit(report: EvalReport): string {
  const repeated = report.runs.some((r) => r.run > 1);
  const failures = report.runs.filter((r) => !r.pass).length;
  const cases = report.runs.map((r) => {
    const name = repeated ? `${r.case} (run ${r.run})` : r.case;
    const failed = r.outcomes.filter((o) => !o.pass);
    const body = failed
      .map((o) => {
        const where = `${report.file}:${o.line}${o.turn === null ? "" : `, turn ${o.turn}`}`;
        return `      <failure message="${escape(`${o.expectation}: ${o.reason}`)}" type="expectation">${escape(where)}</failure>`;
      })
      .join("\n");
    const open = `    <testcase classname="${escape(report.agent)}" name="${escape(name)}" file="${escape(report.file)}" line="${r.line}" time="${(r.ms / 1000).toFixed(3)}"`;
    return failed.length ? `${open}>\n${body}\n    </testcase>` : `${open}/>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="autograms eval" tests="${report.runs.length}" failures="${failures}" time="${(report.ms / 1000).toFixed(3)}">`,
    `  <testsuite name="${escape(report.file)}" tests="${report.runs.length}" failures="${failures}" errors="0" time="${(report.ms / 1000).toFixed(3)}">`,
    ...cases,
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}
