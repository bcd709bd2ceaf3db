/** What `autograms eval --compare` prints after the table: the cases whose result changed, and where each changed turn parted. */
import type { CaseChange } from "@autograms/runtime/eval";

export function comparisonReport(other: string, changes: readonly CaseChange[], cases: number): string {
  const at = (n: { node: string; at: string | null } | null) => (n ? `${n.node} (${n.at ?? "?"})` : "(nothing)");
  const lines = [`\ncompared with ${other}:`];
  for (const c of changes) {
    const rate = (r: { passed: number; runs: number }) =>
      r.runs === 1 ? (r.passed ? "passes" : "fails") : `passes ${r.passed} of ${r.runs}`;
    const result =
      c.before.passed !== c.after.passed
        ? `${rate(c.before)} there, ${rate(c.after)} here`
        : `${rate(c.after)} on both`;
    lines.push(`  ${c.case} (line ${c.line}): ${result}`);
    for (const d of c.turns) {
      const shared = d.lastShared
        ? `after ${d.lastShared.node} (there ${d.lastShared.recorded ?? "?"}, here ${d.lastShared.now ?? "?"})`
        : "from its first node";
      lines.push(
        d.what === "path"
          ? `    turn ${d.turn} parts ${shared}: there ${at(d.recorded)}, here ${at(d.now)}`
          : `    turn ${d.turn} replied elsewhere: there ${at(d.recordedReply)}, here ${at(d.nowReply)}`,
      );
    }
  }
  const flipped = changes.filter((c) => c.before.passed !== c.after.passed).length;
  const turns = changes.reduce((n, c) => n + c.turns.length, 0);
  lines.push(
    `${cases} cases: ${flipped} changed result, ${turns} turn${turns === 1 ? "" : "s"} went another way${changes.length ? "" : " (nothing changed)"}`,
  );
  return `${lines.join("\n")}\n`;
}
