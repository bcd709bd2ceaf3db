// `autograms dap --port`: only a client that speaks the protocol in its order and knows the
// server's secret gets anything loaded; whatever else arrives on the socket ends that connection
// and nothing more, with bounded memory; sessions do not share what they print; errors do not
// quote files that are not agents; an evaluate runs out of the server's process.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { bin, cliTestFolder, root } from "../cli/support/run-cli.js";

const folder = cliTestFolder("autograms-dap-security-");
const marker = () => join(folder(), "imported.txt");
const markerAgent = join(root, "test/debug/fixtures/marker/agent.ts");

const INITIALIZE = { adapterID: "autograms", pathFormat: "path", linesStartAt1: true, columnsStartAt1: true };

let server: ChildProcess;
let port: number;
let secret: string;
let log = "";

beforeAll(async () => {
  server = spawn(process.execPath, [bin, "dap", "--port", "0"], {
    cwd: root,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, AUTOGRAMS_TEST_MARKER: marker() },
  });
  [port, secret] = await new Promise<[number, string]>((resolve, reject) => {
    server.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      log += chunk;
      const m =
        /^autograms dap: listening on 127\.0\.0\.1:(\d+); a launch configuration needs "secret": "([^"]+)"\n/.exec(log);
      if (m) resolve([Number(m[1]), m[2]!]);
    });
    server.on("exit", () => reject(new Error(`the server exited: ${log}`)));
  });
});
afterAll(() => void server.kill());

/** A protocol client on a raw socket: sends frames or bytes, collects what comes back and whether the server closed. */
class Raw {
  readonly socket: Socket;
  private data = "";
  readonly closed: Promise<void>;
  private seq = 0;

  constructor() {
    this.socket = connect(port, "127.0.0.1");
    this.socket.setEncoding("utf8").on("data", (c: string) => (this.data += c));
    this.socket.on("error", () => undefined);
    this.closed = new Promise((resolve) => this.socket.on("close", () => resolve()));
  }

  send(command: string, args: object = {}): void {
    const body = JSON.stringify({ seq: ++this.seq, type: "request", command, arguments: args });
    this.socket.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  }

  /** The messages received so far. */
  messages(): { type: string; command?: string; event?: string; success?: boolean; message?: string; body?: any }[] {
    return [...this.data.matchAll(/Content-Length: (\d+)\r\n\r\n/g)].map((m) =>
      JSON.parse(
        Buffer.from(this.data.slice(m.index! + m[0].length))
          .subarray(0, Number(m[1]))
          .toString(),
      ),
    );
  }

  async response(command: string, timeoutMs = 20_000): Promise<{ success?: boolean; message?: string; body?: any }> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages().find((m) => m.type === "response" && m.command === command);
      if (found) return found;
      if (Date.now() > until) throw new Error(`no '${command}' response; got ${this.data}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async closedWithin(ms: number): Promise<boolean> {
    return Promise.race([this.closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);
  }

  get received(): string {
    return this.data;
  }
}

/** The server still serves: a proper client gets its initialize answered. */
async function stillServes(): Promise<void> {
  const c = new Raw();
  c.send("initialize", INITIALIZE);
  expect((await c.response("initialize")).success).toBe(true);
  c.socket.destroy();
}

const serverRss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, "utf8"))![1]) / 1024;

describe("what is not the Debug Adapter Protocol", () => {
  it("closes a connection that sends an HTTP request, answering nothing and running nothing", async () => {
    const c = new Raw();
    const body = JSON.stringify({
      seq: 1,
      type: "request",
      command: "launch",
      arguments: { program: markerAgent, offline: true, secret },
    });
    c.socket.write(
      `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    expect(await c.closedWithin(10_000)).toBe(true);
    expect(c.received).toBe("");
    expect(existsSync(marker())).toBe(false);
    expect(log).toMatch(
      /closed the connection from 127\.0\.0\.1:\d+: it sent an HTTP request, not the Debug Adapter Protocol\n/,
    );
    await stillServes();
  });

  it("closes a header-less flood at its first bytes, and a header that never ends, in bounded memory", async () => {
    const before = serverRss();
    const flood = new Raw();
    const chunk = Buffer.alloc(1024 * 1024, "A");
    // Written until the server closes: it does not read megabytes to find out.
    for (let i = 0; i < 48 && !flood.socket.destroyed; i++) flood.socket.write(chunk);
    expect(await flood.closedWithin(10_000)).toBe(true);
    const endless = new Raw();
    endless.socket.write("Content-Length: 10\r\n");
    for (let i = 0; i < 200 && !endless.socket.destroyed; i++)
      endless.socket.write("X-Padding: " + "p".repeat(1000) + "\r\n");
    expect(await endless.closedWithin(10_000)).toBe(true);
    const huge = new Raw();
    huge.socket.write("Content-Length: 4000000000\r\n\r\n");
    expect(await huge.closedWithin(10_000)).toBe(true);
    expect(serverRss() - before).toBeLessThan(64);
    await stillServes();
  });

  it("answers nothing but initialize first, and closes the connection", async () => {
    const c = new Raw();
    c.send("launch", { program: markerAgent, offline: true, secret });
    const refused = await c.response("launch");
    expect(refused.success).toBe(false);
    expect(refused.message).toBe("the first request must be 'initialize', not 'launch'");
    expect(await c.closedWithin(10_000)).toBe(true);
    expect(existsSync(marker())).toBe(false);
  });
});

describe("the secret", () => {
  it("refuses a launch without it or with another, loading nothing, and closes the connection", async () => {
    for (const given of [undefined, "guess", secret.slice(0, -1), `${secret}x`]) {
      const c = new Raw();
      c.send("initialize", INITIALIZE);
      await c.response("initialize");
      c.send("evaluate", { expression: "1 + 1" });
      expect((await c.response("evaluate")).message).toBe("'evaluate' before a launch: launch a program first");
      c.send("launch", { program: markerAgent, offline: true, ...(given !== undefined && { secret: given }) });
      const refused = await c.response("launch");
      expect(refused.success).toBe(false);
      expect(refused.message).toMatch(given === undefined ? /^this server needs its secret/ : /^wrong secret/);
      expect(await c.closedWithin(10_000)).toBe(true);
    }
    expect(existsSync(marker())).toBe(false);
  });

  it("lets in a launch with the secret, once per session", async () => {
    const c = new Raw();
    c.send("initialize", INITIALIZE);
    await c.response("initialize");
    c.send("launch", { program: markerAgent, offline: true, secret, stopOnEntry: true });
    await until(() => c.messages().some((m) => m.event === "initialized"));
    expect(existsSync(marker())).toBe(true);
    c.send("launch", { program: markerAgent, offline: true, secret });
    c.send("configurationDone");
    await until(() => c.messages().filter((m) => m.command === "launch").length === 2);
    const second = c.messages().filter((m) => m.command === "launch");
    expect(second.map((m) => m.success)).toEqual([false, true]);
    expect(second[0]!.message).toBe("this session has launched a program already: start another session for another");
    c.socket.destroy();
    rmSync(marker(), { force: true });
  });
});

async function until(check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A session up to its launch's answer: the error message, or null once launched. */
async function launch(args: object): Promise<string | null> {
  const c = new Raw();
  c.send("initialize", INITIALIZE);
  await c.response("initialize");
  c.send("launch", { secret, ...args });
  await until(() => c.messages().some((m) => m.command === "launch" || m.event === "initialized"));
  const initialized = c.messages().some((m) => m.event === "initialized");
  if (initialized) c.send("configurationDone");
  const r = await c.response("launch");
  c.socket.destroy();
  return r.success ? null : r.message!;
}

describe("what a launch opens, and what its errors say", () => {
  it("never quotes a file that is not an agent, and refuses devices and other files unread", async () => {
    const dir = join(folder(), "files");
    mkdirSync(dir);
    const secretText = "root:x:0:0:TOPSECRET-do-not-show:/root:/bin/bash";
    for (const name of ["passwd", "secret.json", "secret.ts", "trace.jsonl"])
      writeFileSync(join(dir, name), `${secretText}\n`);
    writeFileSync(join(dir, "other.json"), JSON.stringify({ format: "TOPSECRET-do-not-show" }));
    symlinkSync("/dev/zero", join(dir, "zero.json"));
    symlinkSync("/dev/zero", join(dir, "zero.ts"));
    const errors: Record<string, string | null> = {};
    for (const program of ["passwd", "secret.json", "secret.ts", "other.json", "zero.json", "zero.ts", "missing.ts"])
      errors[program] = await launch({ program: join(dir, program), offline: true });
    errors.replay = await launch({ program: markerAgent, replay: join(dir, "trace.jsonl") });
    errors.replayZero = await launch({ program: markerAgent, replay: join(dir, "zero.json") });
    for (const message of Object.values(errors)) {
      expect(message).not.toBeNull();
      expect(message).not.toContain("TOPSECRET");
      expect(message).not.toContain("root:x");
    }
    expect(errors.passwd).toMatch(/is neither an agent's \.ts file nor a graph \.json$/);
    expect(errors["secret.json"]).toMatch(/is not a graph: it is not valid JSON$/);
    expect(errors["secret.ts"]).toMatch(/is not an agent: it has no class that extends Autogram$/);
    expect(errors["other.json"]).toMatch(
      /is not a graph \(a JSON object with "format": "autograms-graph", version 1\)$/,
    );
    expect(errors["zero.json"]).toMatch(/: it is not a regular file but a character device$/);
    expect(errors["zero.ts"]).toMatch(/: it is not a regular file but a character device$/);
    expect(errors["missing.ts"]).toMatch(/: no such file$/);
    expect(errors.replay).toMatch(/trace\.jsonl:1: not a JSON line$/);
    expect(errors.replayZero).toMatch(/: it is not a regular file but a character device$/);
    rmSync(marker(), { force: true });
    await stillServes();
  });

  it("keeps each session's compile diagnostics its own when launches overlap, and the server's stderr its own", async () => {
    const dir = join(folder(), "broken");
    mkdirSync(dir);
    const agents = ["one", "two", "three"].map((name) => {
      const file = join(dir, `${name}.ts`);
      writeFileSync(
        file,
        `import { Autogram } from "@autograms/runtime";\nexport default class ${name[0]!.toUpperCase()}${name.slice(1)} extends Autogram {\n  main() {\n    this.missing_${name}();\n  }\n}\n`,
      );
      return [name, file] as const;
    });
    const errors = await Promise.all(agents.map(([, file]) => launch({ program: file, offline: true })));
    agents.forEach(([name], i) => {
      expect(errors[i]).toContain(`missing_${name}`);
      for (const [other] of agents) if (other !== name) expect(errors[i]).not.toContain(`missing_${other}`);
    });
    // The server's own lines still reach its stderr after the launches.
    const c = new Raw();
    c.socket.write("GET / HTTP/1.1\r\n\r\n");
    await c.closedWithin(10_000);
    await until(() => (log.match(/it sent an HTTP request/g) ?? []).length >= 2);
  });
});

describe("evaluate", () => {
  it("runs out of the server's process: what the sandbox stops is an error, and the session goes on", async () => {
    const c = new Raw();
    c.send("initialize", INITIALIZE);
    await c.response("initialize");
    c.send("launch", { program: markerAgent, offline: true, secret, stopOnEntry: true });
    await until(() => c.messages().some((m) => m.event === "initialized"));
    c.send("configurationDone");
    await until(() => c.messages().some((m) => m.event === "stopped"));
    c.send("evaluate", { expression: "this.word + '?'", frameId: 1, context: "watch" });
    expect((await c.response("evaluate")).body.result).toBe('"hello?"');
    const before = c.messages().length;
    c.send("evaluate", {
      expression: "(() => { let s = 'x'; while (true) s = s + s; })()",
      frameId: 1,
      context: "watch",
    });
    await until(() => c.messages().length > before);
    const heavy = c
      .messages()
      .slice(before)
      .find((m) => m.command === "evaluate")!;
    expect(heavy.success).toBe(false);
    c.send("threads");
    expect((await c.response("threads")).success).toBe(true);
    c.socket.destroy();
    rmSync(marker(), { force: true });
  });
});
