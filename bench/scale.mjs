// Scaling out: turns per second with 1, 2 and 4 `autograms serve` processes on one Postgres, on
// this machine. Each round starts the processes (the real command, the offline model, a database
// of its own), sends THREADS conversations of MESSAGES messages each at once, every message to a
// process chosen at random (POST /api/threads/:id/runs, the run's event stream read to its end),
// then checks that every thread holds exactly its turns in order, and prints turns per second and
// the latency of a message (p50 / p99), the CPU time the server processes used per message and
// the most memory one of them held.
//
//   npm run build && node bench/scale.mjs [threads, default 200] [messages per thread, default 10] [process counts, default 1,2,4]
//
// Postgres is a temporary server started here (Debian's postgresql package), as in bench/store.mjs.
// The offline model streams its answer word by word with a 20 ms pause between words (as `serve
// --offline` does), so a message takes about 250 ms even on an idle machine: throughput comes from
// many conversations at once, as with a real model.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../store/dist/index.js";
import { startPostgres } from "../test/store/support/postgres-server.mjs";
import { audit, Cluster, describeLoad, runLoad, writeEchoGraph } from "../test/scale/support/cluster.mjs";

const THREADS = Number(process.argv[2] ?? 200);
const MESSAGES = Number(process.argv[3] ?? 10);
const COUNTS = (process.argv[4] ?? "1,2,4").split(",").map(Number);

/** CPU seconds a process has used so far (user + system), from /proc. */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** The most memory a process has held (VmHWM, MiB), from /proc. */
function peakMiB(pid) {
  try {
    return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) / 1024;
  } catch {
    return 0;
  }
}

const dir = mkdtempSync(join(tmpdir(), "autograms-bench-scale-"));
const postgres = await startPostgres();
const graph = writeEchoGraph(dir);
console.log(
  `${THREADS} threads x ${MESSAGES} messages, sent at once, each message to one of N processes at random; Postgres on loopback`,
);
try {
  for (const n of COUNTS) {
    const url = await postgres.newDatabase();
    const cluster = await new Cluster({ graph, cwd: dir, args: ["--offline", "--store", url] }).start(n);
    try {
      const pids = cluster.processes.map((p) => p.child.pid);
      const before = pids.map(cpuSeconds);
      const shape = { threads: THREADS, turns: MESSAGES, prefix: `n${n}` };
      const result = await runLoad(() => cluster.urls, shape);
      const cpu = pids.map(cpuSeconds).reduce((sum, s, i) => sum + s - before[i], 0);
      const peak = Math.max(...pids.map(peakMiB));
      const store = await openStore(url);
      const found = await audit(store, shape);
      await store.close();
      const wrong = found.lost + found.duplicated + found.outOfOrder + found.other;
      console.log(
        `${describeLoad(`${n} process${n === 1 ? "" : "es"}`, result)}; server CPU ${((cpu * 1000) / result.messages).toFixed(1)} ms per message, peak memory of a process ${peak.toFixed(0)} MiB${wrong ? `; WRONG: ${JSON.stringify(found)}` : ""}`,
      );
    } finally {
      await cluster.stop();
    }
  }
} finally {
  postgres.stop();
  rmSync(dir, { recursive: true, force: true });
}
