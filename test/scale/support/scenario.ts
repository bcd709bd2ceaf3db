// The scale tests' scenario: a fresh Postgres, N serve processes with the offline model on it,
// the load (and the kills, if asked), then the audit of every thread, and one line of figures.
import { expect } from "vitest";
import { openStore } from "@autograms/store";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPostgres } from "../../store/support/postgres-server.mjs";
import { audit, Cluster, describeLoad, killEvery, runLoad, writeEchoGraph } from "./cluster.mjs";

export interface Scenario {
  label: string;
  processes: number;
  threads: number;
  turns: number;
  /** Kill a process at random this often (SIGKILL) and restart it. */
  killEveryMs?: number;
  /** Lease lifetime of the processes (default 2 s: a killed process's threads are free soon). */
  leaseMs?: number;
}

export async function clusterScenario(s: Scenario): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), `autograms-scale-${s.label}-`));
  const postgres = await startPostgres();
  let cluster: Cluster | undefined;
  try {
    const url = await postgres.newDatabase();
    cluster = await new Cluster({
      graph: writeEchoGraph(dir),
      cwd: dir,
      args: ["--offline", "--store", url, "--lease-ms", String(s.leaseMs ?? 2000)],
    }).start(s.processes);
    const c = cluster;
    const stopKilling = s.killEveryMs === undefined ? null : killEvery(c, s.killEveryMs);
    const shape = { threads: s.threads, turns: s.turns, prefix: s.label };
    const result = await runLoad(() => c.urls, shape).finally(() => stopKilling?.());
    console.log(
      describeLoad(
        `${s.label}: ${s.processes} processes, ${s.threads} threads x ${s.turns} turns${s.killEveryMs ? `, ${c.kills} SIGKILLs` : ""}`,
        result,
      ),
    );
    const store = await openStore(url);
    try {
      expect(await audit(store, shape)).toEqual({
        threads: s.threads,
        turns: s.threads * (s.turns + 1),
        lost: 0,
        duplicated: 0,
        outOfOrder: 0,
        other: 0,
      });
    } finally {
      await store.close();
    }
    if (s.killEveryMs !== undefined) expect(c.kills).toBeGreaterThan(0);
  } finally {
    await cluster?.stop();
    postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
