// `autograms serve` exporting its traces to an OTLP/HTTP receiver: the turns its worker threads
// play are exported by its main thread's SDK as the same spans as the turns it plays itself.
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bin, cliTestFolder } from "./support/run-cli.js";
import { attrs, startReceiver, type Receiver } from "./support/otlp-receiver.js";
import { chatBody, json, uiChunks, userMessage } from "../server/support/harness.js";

const folder = cliTestFolder("autograms-otlp-serve-");
const agent = "test/cli/fixtures/greeter/agent.ts";
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

type Tree = { name: string; attributes: Record<string, unknown>; children: Tree[] };

/** The spans of one conversation served with `--workers N`, as a tree of names and attributes. */
async function served(workers: string): Promise<Tree[]> {
  receiver.exports.length = 0;
  const db = `sqlite:${folder()}/otlp-${workers}.db`;
  const child = spawn(
    process.execPath,
    [bin, "serve", agent, "--offline", "--workers", workers, "--port", "0", "--store", db, "--no-playground"],
    {
      env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" },
    },
  );
  const exit = new Promise<number | null>((r) => child.on("close", r));
  let out = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding("utf8").on("data", (c: string) => {
      out += c;
      const m = /^listening on (http:\/\/\S+)\n/m.exec(out);
      if (m) resolve(m[1]!);
    });
    void exit.then((code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
  await uiChunks((await fetch(`${url}/api/chat`, json(chatBody("t", [userMessage("m1", "hi")])))).body!);
  // Stopping flushes the spans not sent yet.
  child.kill("SIGTERM");
  expect(await exit).toBe(0);
  const spans = receiver.jsonSpans();
  const tree = (parent: string | undefined): Tree[] =>
    spans
      .filter((s) => (s.parentSpanId || undefined) === parent)
      .map((s) => ({ name: s.name, attributes: attrs(s), children: tree(s.spanId) }))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  return tree(undefined);
}

describe("OTLP export from autograms serve", () => {
  it("sends the same spans from serve's worker threads as from its own thread", async () => {
    const inWorkers = await served("2");
    const inOwnThread = await served("0");
    // Two turns (the agent's opening and the answer to "hi"), each calling the model in its node.
    expect(inOwnThread.map((t) => t.name)).toEqual(["invoke_agent Greeter", "invoke_agent Greeter"]);
    expect(JSON.stringify(inOwnThread)).toContain('"name":"chat offline"');
    expect(inWorkers).toEqual(inOwnThread);
    // Two serve processes, each started and stopped: seconds each on a busy machine.
  }, 120_000);
});
