// Runs payloads through the built runtime in a process whose heap is capped (the test starts it
// with --max-old-space-size), one JSON line per payload: how it ended. A V8 abort ends the process
// instead, which the test sees as a missing line and the exit signal.
//
//   node --max-old-space-size=N capped-child.mjs <payloads.json>
//
// payloads.json: [{ code, variables?, via: "evaluate" | "agent" }]
import { readFileSync } from "node:fs";

const { evaluate, Agent, SandboxError } = await import(new URL("../../runtime/dist/index.js", import.meta.url).href);
const payloads = JSON.parse(readFileSync(process.argv[2], "utf8"));

const model = { complete: async () => "ok", choose: async () => 0 };

function graphFor(code) {
  return {
    format: "autograms-graph",
    version: 1,
    agent: "Probe",
    start: "main",
    globals: {},
    functions: { probe: { kind: "local_function", params: [], entry: "probe" } },
    nodes: [
      { name: "main", action: "transition", transitions: ["quit"] },
      { name: "probe", action: "code", instruction: code, transitions: ["return"] },
    ],
  };
}

for (const { code, variables = {}, via } of payloads) {
  const started = process.cpuUsage();
  let outcome;
  try {
    if (via === "agent") {
      const value = await new Agent(graphFor(code), { model }).call("probe");
      outcome = { ok: true, size: JSON.stringify(value ?? null).length };
    } else {
      const result = evaluate(code, variables);
      // What a host does with the result: keep it as JSON.
      outcome = { ok: true, size: JSON.stringify(result).length };
    }
  } catch (error) {
    const sandbox = error instanceof SandboxError ? error : error?.cause instanceof SandboxError ? error.cause : null;
    outcome = {
      ok: false,
      sandbox: sandbox !== null,
      kind: sandbox?.kind,
      limit: sandbox?.limit,
      message: String(error?.message).slice(0, 300),
    };
  }
  const cpu = process.cpuUsage(started);
  outcome.ms = Math.round((cpu.user + cpu.system) / 1000);
  process.stdout.write(`${JSON.stringify(outcome)}\n`);
}
