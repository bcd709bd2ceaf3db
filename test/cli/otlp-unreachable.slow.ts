// An OTLP endpoint where nothing listens, or one that takes the connection and never answers:
// serving and chatting go on as without telemetry, and stopping waits for the last spans no longer
// than AUTOGRAMS_OTEL_SHUTDOWN_TIMEOUT_MS (default 2 s), exits with the code it would have without
// telemetry, and says in one line how many spans were not sent.
import { spawn } from "node:child_process";
import { createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { autograms, bin, cliTestFolder, replies } from "./support/run-cli.js";
import { chatBody, json, uiChunks, userMessage } from "../server/support/harness.js";

const folder = cliTestFolder("autograms-otlp-unreachable-");
const agent = "test/cli/fixtures/greeter/agent.ts";

/** A TCP server that accepts connections and never writes a byte (nor closes them). */
let blackHole: Server;
const held: Socket[] = [];
let blackHoleEndpoint: string;
/** A port that was listened on and closed: connections are refused. */
let closedEndpoint: string;
beforeAll(async () => {
  blackHole = createServer((socket) => held.push(socket.on("error", () => {})));
  await new Promise<void>((resolve) => blackHole.listen(0, "127.0.0.1", resolve));
  blackHoleEndpoint = `http://127.0.0.1:${(blackHole.address() as { port: number }).port}`;
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  closedEndpoint = `http://127.0.0.1:${(closed.address() as { port: number }).port}`;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
});
afterAll(async () => {
  for (const socket of held) socket.destroy();
  await new Promise<void>((resolve) => blackHole.close(() => resolve()));
});

const traceLines = (stderr: string) => stderr.split("\n").filter((line) => line.startsWith("(traces:"));

/** `autograms serve` exporting to `endpoint`: one conversation, then SIGTERM; how it ended and how long stopping took. */
async function serveThenStop(endpoint: string, env: Record<string, string> = {}) {
  const child = spawn(
    process.execPath,
    [
      bin,
      "serve",
      agent,
      "--offline",
      "--workers",
      "1",
      "--port",
      "0",
      "--no-playground",
      "--store",
      `sqlite:${folder()}/${Math.random().toString(36).slice(2)}.db`,
    ],
    { env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, ...env } },
  );
  const exit = new Promise<number | null>((resolve) => child.on("close", resolve));
  let out = "";
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding("utf8").on("data", (c: string) => {
      out += c;
      const m = /^listening on (http:\/\/\S+)\n/m.exec(out);
      if (m) resolve(m[1]!);
    });
    void exit.then((code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
  const res = await fetch(`${url}/api/chat`, json(chatBody("t", [userMessage("m1", "hi")])));
  expect(res.status).toBe(200);
  await uiChunks(res.body!);
  expect((await fetch(`${url}/healthz`)).status).toBe(200);
  const stoppedAt = Date.now();
  child.kill("SIGTERM");
  const code = await exit;
  return { code, stopMs: Date.now() - stoppedAt, stderr };
}

describe("OTLP export to an endpoint that does not take the spans", () => {
  it("serve: a port where nothing listens; stops within the default bound, exit 0, one line", async () => {
    const r = await serveThenStop(closedEndpoint);
    expect(r.code, r.stderr).toBe(0);
    // The default bound (2 s) and the process's own stopping.
    expect(r.stopMs).toBeLessThan(4000);
    expect(traceLines(r.stderr)).toEqual([
      expect.stringMatching(
        /^\(traces: \d+ spans not sent to OTEL_EXPORTER_OTLP_ENDPOINT: not taken within 2000 ms \(AUTOGRAMS_OTEL_SHUTDOWN_TIMEOUT_MS\)\)$/,
      ),
    ]);
    expect(r.stderr).not.toMatch(/ECONNREFUSED|at .*\.js/);
  });

  it("serve: an endpoint that never answers; the bound is AUTOGRAMS_OTEL_SHUTDOWN_TIMEOUT_MS", async () => {
    const r = await serveThenStop(blackHoleEndpoint, { AUTOGRAMS_OTEL_SHUTDOWN_TIMEOUT_MS: "300" });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stopMs).toBeLessThan(2000);
    expect(traceLines(r.stderr)).toEqual([expect.stringMatching(/not taken within 300 ms/)]);
  });

  it("chat: exits with its own code, both endpoints", async () => {
    for (const endpoint of [closedEndpoint, blackHoleEndpoint]) {
      const started = Date.now();
      const r = await autograms(["chat", agent, "--offline", "--offline-pace", "0"], {
        input: "hi\n",
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, AUTOGRAMS_OTEL_SHUTDOWN_TIMEOUT_MS: "300" },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(replies(r.stdout)).toHaveLength(2);
      // The whole command: a cold start, two replies and the bounded export (300 ms). An export
      // left unbounded against the endpoint that never answers waits out the exporter's own 10 s;
      // a loaded machine took 5.6 s for the rest, so the bound is below the one, above the other.
      expect(Date.now() - started).toBeLessThan(9000);
      expect(traceLines(r.stderr)).toHaveLength(1);
    }
    // A failed command keeps its own exit code.
    const failed = await autograms(["chat", "missing.ts", "--offline"], {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: closedEndpoint, AUTOGRAMS_OTEL_SHUTDOWN_TIMEOUT_MS: "300" },
    });
    expect(failed.code).toBe(1);
  });

  it("refuses a bound that is not a whole number, naming the variable", async () => {
    const r = await autograms(["chat", agent, "--offline"], {
      input: "hi\n",
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: closedEndpoint, AUTOGRAMS_OTEL_SHUTDOWN_TIMEOUT_MS: "soon" },
    });
    expect([r.code, r.stderr]).toEqual([
      2,
      "autograms chat: AUTOGRAMS_OTEL_SHUTDOWN_TIMEOUT_MS=soon: a whole number of at least 0 is expected\n",
    ]);
  });
});
