// Does exporting traces slow the turns it observes? `autograms serve` plays the busy-loop agent
// (bench/agents/busy-loop.ts: "work N" enters a node per loop step, so a turn makes about 2N spans
// in a worker thread) with --workers 2 while --clients clients send turns for --seconds, twice:
// with no OTLP endpoint, and with OTEL_EXPORTER_OTLP_ENDPOINT naming a slow collector (a local
// HTTP server that reads each export and answers --collector-ms later). Per run: the turns done,
// GET /healthz's latency sampled every 100 ms (median, max), the spans the collector received and
// the spans the server dropped and the turns it did not trace because the exporter was behind
// (autograms_spans_dropped_total, autograms_turns_untraced_total in /metrics).
//
//   npm run build && node bench/span-flood.mjs [--seconds 15] [--clients 4] [--steps 100] [--collector-ms 2000]
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = fileURLToPath(new URL("..", import.meta.url));
const { values: flags } = parseArgs({
  options: {
    seconds: { type: "string", default: "15" },
    clients: { type: "string", default: "4" },
    steps: { type: "string", default: "100" },
    "collector-ms": { type: "string", default: "2000" },
  },
});
const SECONDS = Number(flags.seconds);
const CLIENTS = Number(flags.clients);
const STEPS = Number(flags.steps);
const COLLECTOR_MS = Number(flags["collector-ms"]);

/** An OTLP/HTTP collector that is slow to answer: counts the spans of each http/json export. */
async function slowCollector() {
  let spans = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      for (const rs of body.resourceSpans ?? []) for (const ss of rs.scopeSpans ?? []) spans += ss.spans.length;
      setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end("{}"), COLLECTOR_MS);
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    endpoint: `http://127.0.0.1:${server.address().port}`,
    spans: () => spans,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

async function turn(url, thread, i) {
  const res = await fetch(`${url}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      id: thread,
      messages: [{ id: `${thread}-${i}`, role: "user", parts: [{ type: "text", text: `work ${STEPS}` }] }],
    }),
  });
  if (res.status !== 200) throw new Error(`${res.status}: ${await res.text()}`);
  await res.text();
}

async function run(exporting) {
  const dir = mkdtempSync(join(tmpdir(), "span-flood-"));
  const collector = await slowCollector();
  const env = { ...process.env };
  delete env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (exporting)
    Object.assign(env, { OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" });
  const child = spawn(
    process.execPath,
    [
      join(root, "cli/bin/autograms.js"),
      "serve",
      join(root, "bench/agents/busy-loop.ts"),
      "--offline",
      "--workers",
      "2",
      "--port",
      "0",
      "--no-playground",
      "--store",
      `sqlite:${join(dir, "threads.db")}`,
    ],
    { env, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (c) => (stderr += c));
  const exited = new Promise((resolve) => child.on("close", resolve));
  const url = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (c) => {
      out += c;
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    void exited.then((code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
  // Each client's thread opened first (the agent's opening), not counted.
  await Promise.all(Array.from({ length: CLIENTS }, (_, c) => turn(url, `c${c}`, 0)));
  const end = Date.now() + SECONDS * 1000;
  let turns = 0;
  const healthz = [];
  const probe = (async () => {
    while (Date.now() < end) {
      const start = performance.now();
      await (await fetch(`${url}/healthz`)).text();
      healthz.push(performance.now() - start);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      for (let i = 1; Date.now() < end; i++) {
        await turn(url, `c${c}`, i);
        if (Date.now() <= end) turns++;
      }
    }),
  );
  await probe;
  const metrics = await (await fetch(`${url}/metrics`)).text();
  const dropped = Number(/^autograms_spans_dropped_total (\d+)/m.exec(metrics)?.[1] ?? NaN);
  const untraced = Number(/^autograms_turns_untraced_total (\d+)/m.exec(metrics)?.[1] ?? NaN);
  const received = collector.spans();
  const stopAt = Date.now();
  child.kill("SIGTERM");
  const code = await exited;
  const exitMs = Date.now() - stopAt;
  await collector.close();
  rmSync(dir, { recursive: true, force: true });
  healthz.sort((a, b) => a - b);
  return {
    turns,
    healthzMedian: healthz[Math.floor(healthz.length / 2)],
    healthzMax: healthz.at(-1),
    received,
    dropped,
    untraced,
    exit: `${code} after ${exitMs} ms`,
    lastLines: stderr.trim().split("\n").slice(-2).join(" | "),
  };
}

console.log(
  `busy-loop agent, 'work ${STEPS}' a turn, ${CLIENTS} clients, --workers 2, ${SECONDS} s; collector answers after ${COLLECTOR_MS} ms`,
);
console.log("export | turns | /healthz median | /healthz max | spans received | spans dropped | turns untraced | exit");
for (const exporting of [false, true]) {
  const r = await run(exporting);
  console.log(
    `${exporting ? "on " : "off"} | ${r.turns} | ${r.healthzMedian.toFixed(1)} ms | ${r.healthzMax.toFixed(1)} ms | ${r.received} | ${Number.isNaN(r.dropped) ? "-" : r.dropped} | ${Number.isNaN(r.untraced) ? "-" : r.untraced} | ${r.exit}`,
  );
  if (exporting) console.log(`  (serve's last lines: ${r.lastLines})`);
}
