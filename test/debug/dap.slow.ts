// `autograms dap` over a real Debug Adapter Protocol session, driven by VS Code's own test client:
// the built command on stdio, and on TCP with --port.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DebugClient } from "@vscode/debugadapter-testsupport";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { autogramsInProcess, bin, cliTestFolder, root } from "../cli/support/run-cli.js";
import { sampleConversation } from "./support.js";

const agent = join(root, "samples", "tutor", "agent.ts");
const users = sampleConversation("tutor")
  .turns!.slice(1)
  .map((t) => t.user);
const folder = cliTestFolder("autograms-dap-");
let trace: string;
let dir: string;

beforeAll(async () => {
  dir = folder();
  trace = join(dir, "tutor.jsonl");
  const r = await autogramsInProcess(["chat", "samples/tutor/agent.ts", "--offline", "--trace", trace], {
    input: users.join("\n") + "\n",
  });
  expect(r.code, r.stderr).toBe(0);
});

/** A DebugClient talking to an adapter process it did not start itself (DebugClient spawns without arguments). */
class AdapterClient extends DebugClient {
  attachTo(child: ChildProcess): void {
    this.connect(child.stdout!, child.stdin!);
  }
}

const children: ChildProcess[] = [];
const clients: DebugClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.stop().catch(() => {});
  for (const c of children.splice(0)) c.kill();
});

function stdioClient(): AdapterClient {
  const child = spawn(process.execPath, [bin, "dap"], { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
  children.push(child);
  const client = new AdapterClient("node", bin, "autograms");
  client.defaultTimeout = 20_000;
  client.attachTo(child);
  clients.push(client);
  return client;
}

async function tcpClient(): Promise<{ client: DebugClient; secret: string }> {
  const child = spawn(process.execPath, [bin, "dap", "--port", "0"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  const [port, secret] = await new Promise<[number, string]>((resolve, reject) => {
    let err = "";
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      err += chunk;
      const m = /listening on 127\.0\.0\.1:(\d+); a launch configuration needs "secret": "([^"]+)"\n/.exec(err);
      if (m) resolve([Number(m[1]), m[2]!]);
    });
    child.on("exit", () => reject(new Error(`the adapter exited: ${err}`)));
  });
  const client = new DebugClient("node", bin, "autograms");
  await client.start(port);
  clients.push(client);
  return { client, secret };
}

const outputOf = (client: DebugClient) => {
  const out: string[] = [];
  client.on("output", (e: DebugProtocol.OutputEvent) => out.push(e.body.output));
  return out;
};

async function top(client: DebugClient): Promise<DebugProtocol.StackFrame[]> {
  return (await client.stackTraceRequest({ threadId: 1 })).body.stackFrames;
}

async function stoppedAt(client: DebugClient, reason: string, line: number): Promise<DebugProtocol.StackFrame[]> {
  const event = (await client.waitForEvent("stopped")) as DebugProtocol.StoppedEvent;
  expect(event.body.reason).toBe(reason);
  const frames = await top(client);
  expect(frames[0]!.line).toBe(line);
  return frames;
}

describe("autograms dap (stdio)", () => {
  it("stops at a breakpoint on the agent's line and shows the function stack, its scopes and values, then steps", async () => {
    const client = stdioClient();
    const output = outputOf(client);
    await client.hitBreakpoint(
      { program: "samples/tutor/agent.ts", replay: trace, cwd: root },
      { path: agent, line: 44 },
    );
    const frames = await top(client);
    expect(frames.map((f) => [f.name, f.source?.path, f.line, f.column])).toEqual([
      ["doUnit (pose)", agent, 44, 5],
      ["main (main.for_of_6ddc.call_doUnit_c1db)", agent, 27, 7],
    ]);
    expect((await client.threadsRequest()).body.threads).toEqual([{ id: 1, name: "FractionTutor conversation" }]);

    const scopes = (await client.scopesRequest({ frameId: frames[0]!.id })).body.scopes;
    expect(scopes.map((s) => s.name)).toEqual(["doUnit (global_function)", "main (globals)"]);
    const locals = (await client.variablesRequest({ variablesReference: scopes[0]!.variablesReference })).body
      .variables;
    expect(locals.slice(0, 4).map((v) => [v.name, v.value])).toEqual([
      ["topic", '"adding fractions"'],
      ["lesson", '"To add fractions with the same denominator, add the tops and keep the bottom: 1/5 + 2/5 = 3/5."'],
      ["problem", '"What is 1/4 + 2/4?"'],
      ["answer", '"3/4"'],
    ]);
    const globals = (await client.variablesRequest({ variablesReference: scopes[1]!.variablesReference })).body
      .variables;
    const units = globals.find((v) => v.name === "units")!;
    expect(units.variablesReference).toBeGreaterThan(0);
    const items = (await client.variablesRequest({ variablesReference: units.variablesReference })).body.variables;
    expect(items.map((v) => v.name)).toEqual(["0", "1"]);
    const fields = (await client.variablesRequest({ variablesReference: items[1]!.variablesReference })).body.variables;
    expect(fields.find((v) => v.name === "topic")!.value).toBe('"multiplying fractions"');

    expect(
      (await client.evaluateRequest({ expression: "this.correct", frameId: frames[0]!.id, context: "hover" })).body
        .result,
    ).toBe("0");
    expect(
      (await client.evaluateRequest({ expression: "units.length", frameId: frames[1]!.id, context: "watch" })).body
        .result,
    ).toBe("2");
    const hidden = await client
      .evaluateRequest({ expression: "answer", frameId: frames[1]!.id, context: "watch" })
      .catch((e: Error) => e);
    expect(String(hidden)).toMatch(/answer/);
    const bad = await client
      .evaluateRequest({ expression: "nope + 1", frameId: frames[0]!.id, context: "watch" })
      .catch((e: Error) => e);
    expect(String(bad)).toMatch(/nope/);

    await Promise.all([client.nextRequest({ threadId: 1 }), stoppedAt(client, "step", 45)]);
    await Promise.all([client.stepInRequest({ threadId: 1 }), stoppedAt(client, "step", 55)]);
    const inner = await top(client);
    expect(inner.map((f) => f.name.split(" ")[0])).toEqual(["checkAnswer", "doUnit", "main"]);
    await Promise.all([client.stepOutRequest({ threadId: 1 }), stoppedAt(client, "step", 46)]);
    await Promise.all([client.continueRequest({ threadId: 1 }), stoppedAt(client, "breakpoint", 44)]);
    await Promise.all([
      client.setBreakpointsRequest({ source: { path: agent }, breakpoints: [] }),
      client.continueRequest({ threadId: 1 }),
      client.waitForEvent("terminated"),
    ]);
    expect(output.join("")).toContain("Agent: Here's your problem: What is 1/4 + 2/4?\nyou (recorded): 3/4\n");
    expect(output.join("")).toContain("The conversation has ended (quit).\n");
  });

  it("verifies breakpoints: moved to the nearest line with a node, refused in other files; function breakpoints", async () => {
    const client = stdioClient();
    // The launch completes once the configuration is done.
    const launched = client.launch({ program: agent, replay: trace });
    await client.waitForEvent("initialized");
    const lines = (
      await client.setBreakpointsRequest({
        source: { path: agent },
        breakpoints: [{ line: 21 }, { line: 33 }, { line: 46 }, { line: 500 }],
      })
    ).body.breakpoints;
    expect(lines.map((b) => [b.verified, b.line])).toEqual([
      [true, 17],
      [true, 35],
      [true, 46],
      [false, undefined],
    ]);
    // Far past the end of the file: refused with the reason, not moved to the last node.
    expect(lines[3]!.message).toBe("line 500 is past the end of samples/tutor/agent.ts, which has 69 lines");
    const elsewhere = (
      await client.setBreakpointsRequest({
        source: { path: join(root, "samples", "recruiter", "agent.ts") },
        breakpoints: [{ line: 3 }],
      })
    ).body.breakpoints;
    expect(elsewhere[0]).toMatchObject({ verified: false });
    expect(elsewhere[0]!.message).toContain("not the agent's source file");
    const fns = (
      await client.setFunctionBreakpointsRequest({ breakpoints: [{ name: "checkAnswer" }, { name: "nothing" }] })
    ).body.breakpoints;
    expect(fns.map((b) => [b.verified, b.line])).toEqual([
      [true, 55],
      [false, undefined],
    ]);
    await Promise.all([client.configurationDoneRequest(), launched, stoppedAt(client, "breakpoint", 17)]);
    for (const line of [35, 55, 46])
      await Promise.all([client.continueRequest({ threadId: 1 }), stoppedAt(client, "breakpoint", line)]);
  });

  it("fails the launch with the compile diagnostics of a broken agent", async () => {
    const broken = join(dir, "broken.ts");
    writeFileSync(
      broken,
      'import { Autogram } from "@autograms/runtime";\nexport default class A extends Autogram {\n  main() {\n    this.missing();\n  }\n}\n',
    );
    const client = stdioClient();
    const error = await client.launch({ program: broken }).catch((e: Error) => e);
    expect(String(error)).toContain("error unknown_method");
    expect(String(error)).toContain("> 4 |     this.missing();");
  });
});

describe("autograms dap --port (TCP)", () => {
  it("runs a live conversation: stops on entry, takes scripted inputs, then the user's message from the Debug Console", async () => {
    const { client, secret } = await tcpClient();
    const output = outputOf(client);
    await Promise.all([
      client
        .waitForEvent("initialized")
        .then(() => client.setFunctionBreakpointsRequest({ breakpoints: [{ name: "checkAnswer" }] }))
        .then(() => client.configurationDoneRequest()),
      client.launch({
        program: agent,
        offline: true,
        stopOnEntry: true,
        userInputs: ["yes"],
        secret,
      } as DebugProtocol.LaunchRequestArguments),
      stoppedAt(client, "entry", 14),
    ]);
    await Promise.all([client.continueRequest({ threadId: 1 }), stoppedAt(client, "pause", 36)]);
    expect(output.join("")).toContain("The conversation waits for your message: type it in the Debug Console.\n");
    await Promise.all([
      client
        .evaluateRequest({ expression: "no questions", context: "repl" })
        .then((r) => expect(r.body.result).toBe("(sent: no questions)")),
      client.waitForEvent("continued"),
      stoppedAt(client, "pause", 44),
    ]);
    await Promise.all([
      client.evaluateRequest({ expression: "3/4", context: "repl" }),
      stoppedAt(client, "breakpoint", 55),
    ]);
    const scopes = (await client.scopesRequest({ frameId: (await top(client))[0]!.id })).body.scopes;
    expect(scopes.map((s) => s.name)).toEqual(["checkAnswer (local_function)"]);
    expect(output.join("")).toContain("Agent: Hi! I'm your fractions tutor.");
    expect(output.join("")).toContain("you: yes\n");
  });
});
