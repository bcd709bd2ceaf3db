// The sandbox's memory accounting where a miss would be fatal: payloads that would take
// gigabytes if V8 copied a string unpaid, run in a node process whose heap is capped, so that a
// miss ends the process (a V8 abort) instead of a test's assertion. A process of its own each
// run, so this is in the slow tier (the same limits in process: hardening.test.ts).
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, test } from "vitest";

const dir = mkdtempSync(join(tmpdir(), "sandbox-hardening-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface ChildOutcome {
  ok: boolean;
  sandbox?: boolean;
  kind?: string;
  limit?: string;
  message?: string;
  ms: number;
}

/**
 * Runs payloads in a node process whose heap is capped far below what the payloads would take
 * if a string were copied unpaid (a V8 abort then ends the process, instead of a line of output).
 */
function inCappedChild(
  payloads: { code: string; via: "evaluate" | "agent" }[],
  heapMb = 384,
): Promise<{ outcomes: ChildOutcome[]; code: number | null; signal: string | null; stderr: string }> {
  const file = join(dir, `payloads-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(payloads));
  const script = fileURLToPath(new URL("./capped-child.mjs", import.meta.url));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [`--max-old-space-size=${heapMb}`, script, file],
      { timeout: 240_000, maxBuffer: 1 << 24 },
      (error, stdout, stderr) => {
        const outcomes = stdout
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line) as ChildOutcome);
        const failure = error as (Error & { code?: number; signal?: string }) | null;
        resolve({ outcomes, code: failure ? (failure.code ?? null) : 0, signal: failure?.signal ?? null, stderr });
      },
    );
  });
}

const S = "const s = 'x'.repeat(1e6); ";

describe("memory: a string is charged where V8 can copy it (flatten, internalize, store)", () => {
  const payloads = [
    // Slices and ropes cost little until they become property keys (an internalized copy each).
    `${S}const o = {}; Array.from({ length: 1e5 }, (_, i) => { o[s.slice(i)] = i; return 0 }).length`,
    `${S}Object.fromEntries(Array.from({ length: 1e5 }, (_, i) => [s + i, i]))`,
    `${S}const o = {}; Array.from({ length: 1e5 }, (_, i) => (s + i) in o).length`,
    `${S}Array.from({ length: 1e5 }, (_, i) => Object.hasOwn({}, s.slice(i))).length`,
    `${S}const o = { a: 1 }; Array.from({ length: 1e5 }, (_, i) => o[i + s]).length`,
    // Ropes are copied out when compared, searched, read, serialised or sorted.
    `${S}Array.from({ length: 1e5 }, (_, i) => (s + i) < s).length`,
    `${S}Array.from({ length: 1e5 }, (_, i) => (s + i) === (s + (i + 1))).length`,
    `${S}Array.from({ length: 1e5 }, (_, i) => (s + i).indexOf('y')).length`,
    `${S}Array.from({ length: 1e5 }, (_, i) => \`\${s}\${i}\`[5]).length`,
    `${S}Array.from({ length: 1e5 }, (_, i) => JSON.stringify(s + i).length).length`,
    `${S}Array.from({ length: 1e5 }, (_, i) => i + s).sort().length`,
    `${S}Array.from({ length: 1e5 }, (_, i) => (s + i).slice(1).length).length`,
    `${S}Array.from({ length: 1e5 }, (_, i) => [s, i].join('').charCodeAt(3)).length`,
    // Stored: shared data counts each time it appears, as it will in the memory's JSON.
    `${S}let x = Array.from({ length: 1e5 }, () => s)`,
    `${S}let x = Array.from({ length: 1e5 }, (_, i) => s + i)`,
    `${S}let x = Array.from({ length: 1e5 }, (_, i) => s.slice(i))`,
    `${S}Array.from({ length: 1e5 }, () => ({ s }))`,
    `${S}let x = Object.fromEntries(Array.from({ length: 1e5 }, (_, i) => ['k' + i, s]))`,
    `${S}const v = Array.from({ length: 15 }, () => s); let a = v, b = v, c = v, d = v, e = v`,
  ];

  test("each payload ends in a limit error, in a process with a 384 MB heap", async () => {
    const run = await inCappedChild([
      ...payloads.map((code) => ({ code, via: "evaluate" as const })),
      ...[payloads[1]!, payloads[5]!, payloads[13]!, payloads[16]!].map((code) => ({ code, via: "agent" as const })),
    ]);
    expect(run.signal, run.stderr).toBeNull();
    expect(run.code, run.stderr).toBe(0);
    expect(run.outcomes).toHaveLength(payloads.length + 4);
    run.outcomes.forEach((outcome, i) => {
      expect(outcome, `payload ${i}`).toMatchObject({ ok: false, sandbox: true, kind: "limit" });
      expect(outcome.ms, `payload ${i}`).toBeLessThan(5_000);
    });
  }, 240_000);
});
