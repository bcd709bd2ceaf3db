// Clients that drip their request bodies cannot keep a normal client out: many connections from
// one address each sending the start of a body and then nothing, against a real server.
import { afterAll, describe, expect, it } from "vitest";
import { connect, type Socket } from "node:net";
import { startTestServer, tempFolder, type TestServer } from "./support/harness.js";

const folder = tempFolder("autograms-slow-clients-");
const servers: TestServer[] = [];
const sockets: Socket[] = [];
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all(servers.map((s) => s.close()));
  folder.remove();
});

/** A connection that sends a request's headers and the first bytes of its body, then nothing more. */
const drip = (url: string): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const u = new URL(url);
    const socket = connect(Number(u.port), u.hostname, () => {
      socket.write(
        `POST /api/threads/drip/runs HTTP/1.1\r\nHost: ${u.host}\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n{"message":"`,
      );
      resolve(socket);
    });
    sockets.push(socket);
    socket.on("error", () => {});
    socket.once("error", reject);
    socket.resume();
  });

describe("clients that drip their bodies", () => {
  it("are cut, the longest dripping first, so a normal client is answered at once", async () => {
    // 300 drippers against 250 connections a client address may hold (1,000 by default).
    const s = await startTestServer(folder.path, { connections: { perClient: 250 } });
    servers.push(s);
    const drippers: Socket[] = [];
    for (let i = 0; i < 300; i++) drippers.push(await drip(s.url));
    await new Promise((r) => setTimeout(r, 300));
    // At most 64 bodies are received at once from one address: the oldest drippers were cut.
    const open = drippers.filter((d) => !d.destroyed);
    expect(open.length).toBeLessThanOrEqual(64);
    expect(drippers.at(-1)!.destroyed).toBe(false);
    const t0 = performance.now();
    const res = await fetch(`${s.url}/api/threads`);
    expect(res.status).toBe(200);
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it("at the connections' bound, the oldest still receiving its body gives way to a new client", async () => {
    const s = await startTestServer(folder.path, { connections: { perClient: 100, bodiesPerClient: 1000 } });
    servers.push(s);
    const drippers: Socket[] = [];
    for (let i = 0; i < 100; i++) drippers.push(await drip(s.url));
    await new Promise((r) => setTimeout(r, 200));
    expect(drippers.filter((d) => !d.destroyed)).toHaveLength(100);
    const res = await fetch(`${s.url}/api/threads`);
    expect(res.status).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    expect(drippers[0]!.destroyed).toBe(true);
  });
});
