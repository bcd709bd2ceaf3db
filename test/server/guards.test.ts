// What keeps other web pages and slow clients away from a server on the user's machine, over real
// sockets: the Host check of a loopback bind (DNS rebinding), the origin and content type of a
// request that changes something, CORS by opt-in only, the token rules shared with the CLI, and
// the limits that let new clients in while old ones drip their headers.
import { afterAll, describe, expect, it } from "vitest";
import { request } from "node:http";
import { connect, type Socket } from "node:net";
import { createApp, listen } from "@autograms/server";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { echoAgent } from "../store/support/agents.js";
import { json, sseFrames, startTestServer, tempFolder, type TestServer } from "./support/harness.js";

const folder = tempFolder("autograms-guards-");
const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
  folder.remove();
});

async function start(options: Parameters<typeof startTestServer>[1] = {}): Promise<TestServer> {
  const s = await startTestServer(folder.path, options);
  servers.push(s);
  return s;
}

/** A request with headers fetch() would not send as given (Host). */
function raw(
  url: string,
  path: string,
  headers: Record<string, string>,
  method = "GET",
  body?: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method, headers }, (res) => {
      let text = "";
      res
        .setEncoding("utf8")
        .on("data", (c: string) => (text += c))
        .on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("a loopback server and the pages of the user's browser", () => {
  it("answers only requests that name it (Host): localhost, the bound address, the names allowed", async () => {
    const s = await start({ allowedHosts: ["chat.internal"] });
    const port = new URL(s.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, "LOCALHOST", `chat.internal:${port}`]) {
      expect((await raw(s.url, "/api/threads", { host })).status, host).toBe(200);
    }
    const rebound = await raw(s.url, "/api/threads", { host: `attacker.example:${port}` });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body)).toMatchObject({
      error: {
        code: "forbidden_host",
        field: "Host",
        message: expect.stringContaining("not to the host 'attacker.example:"),
      },
    });
    // Before anything else: the probes, the playground and a tokenless API alike.
    for (const path of ["/readyz", "/", "/openapi.json"])
      expect((await raw(s.url, path, { host: "attacker.example" })).status, path).toBe(403);
  });

  it("takes a request that changes something only from its own origin or an allowed one, with a JSON body", async () => {
    const s = await start();
    const send = (headers: Record<string, string>, body = JSON.stringify({ message: "hi" })) =>
      fetch(`${s.url}/api/threads/g1/runs`, { method: "POST", headers, body });
    // A page of another site: refused, whatever the body, and nothing of it is stored.
    const foreign = await send({ origin: "https://attacker.example", "content-type": "application/json" });
    expect([foreign.status, (await foreign.json()).error.code]).toEqual([403, "forbidden_origin"]);
    const stop = await fetch(`${s.url}/api/threads/g1`, { method: "DELETE", headers: { origin: "null" } });
    expect(stop.status).toBe(403);
    // A body without a JSON Content-Type (what a page may send with no preflight): 415.
    for (const type of [
      undefined,
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
    ]) {
      const res = await send(type === undefined ? {} : { "content-type": type });
      expect([res.status, (await res.json()).error], String(type)).toEqual([
        415,
        expect.objectContaining({ code: "unsupported_media_type", field: "Content-Type" }),
      ]);
    }
    expect(await s.store.thread("g1")).toBeNull();
    // Its own page (the playground), and a client that names no origin.
    const own = await send({ origin: s.url, "content-type": "application/json" });
    expect(JSON.parse((await sseFrames(own)).at(-1)!.data).event.type).toBe("run-finish");
    const plain = await send(
      { "content-type": "application/json; charset=utf-8" },
      JSON.stringify({ message: "again" }),
    );
    expect(plain.status).toBe(200);
    await plain.text();
  });

  it("answers another origin's app only when it is named (--cors), preflight included, never with credentials", async () => {
    const app = "http://app.example:5173";
    const s = await start({ cors: [app] });
    const pre = await fetch(`${s.url}/api/threads/c1/runs`, {
      method: "OPTIONS",
      headers: {
        origin: app,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type,authorization",
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe(app);
    expect(pre.headers.get("access-control-allow-headers")).toMatch(/content-type/);
    expect(pre.headers.get("access-control-allow-credentials")).toBeNull();
    const res = await fetch(`${s.url}/api/threads/c1/runs`, json({ message: "hi" }, { origin: app }));
    // An event stream, written to the connection by listen (http/sse-node.ts) with the middleware's headers.
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(res.headers.get("access-control-allow-origin")).toBe(app);
    await res.text();
    const other = await fetch(
      `${s.url}/api/threads/c1/runs`,
      json({ message: "hi" }, { origin: "http://other.example" }),
    );
    expect(other.status).toBe(403);
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    // Without --cors, no CORS header at all.
    const none = await start();
    expect(
      (await fetch(`${none.url}/api/threads`, { headers: { origin: app } })).headers.get("access-control-allow-origin"),
    ).toBeNull();
  });

  it("refuses what could never be safe or work: no token off loopback, a token no client can send, '*' without a token", async () => {
    const store = servers[0]!.store;
    const agent = echoAgent();
    await expect(listen({ agent, store, host: "0.0.0.0", port: 0 })).rejects.toThrow(
      /host 0\.0\.0\.0 lets other machines in: give a token/,
    );
    await expect(listen({ agent, store, port: 0, token: "two words" })).rejects.toThrow(
      /visible ASCII characters \(no spaces/,
    );
    await expect(listen({ agent, store, port: 0, token: "" })).rejects.toThrow(/the token is empty/);
    // Bearer-auth takes a bearer token's characters only (RFC 6750): another could never match.
    await expect(listen({ agent, store, port: 0, token: "pa$$word!" })).rejects.toThrow(
      /those of a bearer token: letters, digits, - \. _ ~ \+ \/ and = at its end only/,
    );
    await expect(listen({ agent, store, port: 0, cors: ["*"] })).rejects.toThrow(/give a token too/);
    await expect(listen({ agent, store, port: 0, cors: ["app.example"] })).rejects.toThrow(/is not an origin/);
  });

  it("refuses options of the wrong kind, naming them, before anything starts", async () => {
    const store = servers[0]!.store;
    const agent = echoAgent();
    const odd = <T>(v: unknown) => v as T;
    const refusals: [() => unknown, string][] = [
      // Listened on as a Unix socket named "3000" in the working directory, before.
      [
        () => listen({ agent, store, port: odd("3000") }),
        "listen: port must be a whole number from 0 (any free port) to 65535, not '3000'",
      ],
      [
        () => listen({ agent, store, port: 70000 }),
        "listen: port must be a whole number from 0 (any free port) to 65535, not 70000",
      ],
      [
        () => listen({ agent: odd(null), store, port: 0 }),
        "listen: agent must be an Agent (new Agent(graph, { model })), not null",
      ],
      [
        () => listen({ agent, store, port: 0, connections: { perClient: odd("a") } }),
        "listen: connections.perClient must be a whole number, at least 1, not 'a'",
      ],
      [
        () => createApp({ agent, store: odd({}) }),
        "createApp: store must be a Store (await openStore(url)), not object",
      ],
      // Served as `reject`, before.
      [
        () => createApp({ agent, store, policy: odd("bogus") }),
        "createApp: policy must be one of reject, enqueue, interrupt, rollback, not 'bogus'",
      ],
      [
        () => createApp({ agent, store, onStale: odd("ignore") }),
        "createApp: onStale must be one of refuse, restart, not 'ignore'",
      ],
      [
        () => createApp({ agent, store, limits: { maxBodyBytes: -1 } }),
        "createApp: limits.maxBodyBytes must be a whole number, at least 1, not -1",
      ],
      [
        () => createApp({ agent, store, cors: odd("https://app.example") }),
        "createApp: cors must be an array of strings, not 'https://app.example'",
      ],
      [
        () => createApp({ agent, store, flushMs: odd("soon") }),
        "createApp: flushMs must be a number of milliseconds, at least 0, not 'soon'",
      ],
      [
        () => createApp({ agent, store, resumeWindowMs: -1 }),
        "createApp: resumeWindowMs must be a whole number, at least 0, not -1",
      ],
      [() => createApp({ agent, store, watching: odd(1) }), "createApp: watching must be a boolean, not 1"],
      [
        () => createApp({ agent, store, turnCalls: { concurrent: 0 } }),
        "createApp: turnCalls.concurrent must be a whole number, at least 1, not 0",
      ],
      [() => createApp(odd(null)), "createApp: its options must be an object, not null"],
    ];
    for (const [call, message] of refusals) {
      await expect(Promise.resolve().then(call)).rejects.toThrow(TypeError);
      await expect(Promise.resolve().then(call)).rejects.toThrow(message);
    }
    expect(existsSync(join(process.cwd(), "3000"))).toBe(false);
  });
});

describe("slow clients", () => {
  /** A connection that sends the start of a request and then nothing more; resolves with it open. */
  const drip = (url: string): Promise<Socket> =>
    new Promise((resolve, reject) => {
      const u = new URL(url);
      const socket = connect(Number(u.port), u.hostname, () => {
        socket.write(`GET /api/threads HTTP/1.1\r\nHost: ${u.host}\r\nX-Slow: `);
        resolve(socket);
      });
      socket.on("error", () => {});
      socket.once("error", reject);
      socket.resume(); // read what comes (the 408, the end), as a client does
    });
  const closed = (socket: Socket) =>
    new Promise<void>((r) => (socket.destroyed ? r() : socket.once("close", () => r())));

  it("answers new clients while many old ones drip their headers, and cuts a dripper after the header time", async () => {
    const s = await start({ connections: { headersMs: 1500, idlePerClient: 8 } });
    const drippers: Socket[] = [];
    for (let i = 0; i < 300; i++) drippers.push(await drip(s.url));
    // Only the newest 8 of them are still open; a new client is answered at once.
    await new Promise((r) => setTimeout(r, 200));
    expect(drippers.filter((d) => !d.destroyed).length).toBeLessThanOrEqual(8);
    const t0 = performance.now();
    expect((await fetch(`${s.url}/api/threads`)).status).toBe(200);
    expect(performance.now() - t0).toBeLessThan(1000);
    // The last ones are cut once their header time is up.
    const last = drippers.at(-1)!;
    const since = performance.now();
    await closed(last);
    expect(performance.now() - since).toBeLessThan(4000);
  });
});
