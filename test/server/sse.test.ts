// An SSE response writes the frames that are ready together as one chunk, in their order, and
// loses none whatever their pace, read from its web stream (the app's `fetch` on any runtime) and
// from the connection it is written to (`listen`, http/sse-node.ts), where the headers go with the first
// chunk, a quiet stream answers at once and gets keep-alives, a client that does not read holds
// back its source and one that goes away stops it. A reconnecting client still gets exactly the
// frames after its Last-Event-ID (resume.test.ts covers the routes).
import { createServer, type Server, type ServerResponse } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { frameText, sseChunksOf, sseResponse, type SseFrame } from "../../server/src/http/sse.js";
import { writeSseToNode } from "../../server/src/http/sse-node.js";

type Frames = (signal: AbortSignal) => AsyncIterable<SseFrame>;

const frame = (n: number): SseFrame => ({ id: `run:${n}`, event: n % 2 ? "step" : undefined, data: `{"n":${n}}` });
const servers: Server[] = [];
afterEach(async () => {
  // Connections a failed test left open (a client that reads nothing) are cut, or close would wait for them.
  for (const s of servers.splice(0)) await new Promise((r) => (s.close(r), s.closeAllConnections()));
});

/** The chunks a client reads from the response's web stream. */
async function webChunks(frames: Frames): Promise<string[]> {
  const decoder = new TextDecoder();
  const chunks: string[] = [];
  for await (const chunk of sseResponse(frames, {}).body as unknown as AsyncIterable<Uint8Array>)
    chunks.push(decoder.decode(chunk));
  return chunks;
}

/**
 * A Node server answering every request with `frames` as `listen` writes them; the text of each of its
 * writes. `late`: the answer is begun only once its client has gone.
 */
async function serving(frames: Frames, keepAliveMs?: number, firstWriteMs?: number, late = false) {
  const writes: string[] = [];
  let answered = 0;
  const server = createServer((_req, res: ServerResponse) => {
    if (late) return void res.once("close", () => answer(res));
    answer(res);
  });
  const answer = (res: ServerResponse) => {
    answered++;
    const headers = { "content-type": "text/event-stream" };
    const write = res.write.bind(res);
    const end = res.end.bind(res);
    res.write = ((chunk: string) => (writes.push(chunk), write(chunk))) as typeof res.write;
    res.end = ((chunk?: string) => (chunk && writes.push(chunk), end(chunk))) as typeof res.end;
    writeSseToNode(sseChunksOf(sseResponse(frames, headers, keepAliveMs).body)!, res, 200, headers, firstWriteMs);
  };
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, writes, answered: () => answered };
}

/** The writes of the Node writer, once a client has read the whole response (checked to be their sum). */
async function nodeChunks(frames: Frames): Promise<string[]> {
  const s = await serving(frames);
  const res = await fetch(s.url);
  expect(res.headers.get("content-type")).toBe("text/event-stream");
  expect(await res.text()).toBe(s.writes.join(""));
  return s.writes;
}

describe.each([
  ["a web stream", webChunks],
  ["Node's response", nodeChunks],
])("an SSE response written to %s", (_, chunksOf) => {
  it("writes frames ready at once as one chunk, and those that come later in their own", async () => {
    async function* frames() {
      for (let n = 1; n <= 5; n++) yield frame(n);
      // Later than a first write waits for more (sse-node.ts).
      await new Promise((r) => setTimeout(r, 150));
      for (let n = 6; n <= 8; n++) yield frame(n);
    }
    expect(await chunksOf(() => frames())).toEqual(
      [
        [1, 2, 3, 4, 5],
        [6, 7, 8],
      ].map((ns) => ns.map((n) => frameText(frame(n))).join("")),
    );
  });

  it("loses and reorders no frame, whatever mix of ready and late frames the source gives", async () => {
    const pace = Array.from({ length: 400 }, (_, i) => (i * 7919) % 5); // 0: ready; else a wait of that many ms
    async function* frames() {
      for (let n = 1; n <= pace.length; n++) {
        if (pace[n - 1]! === 1) await new Promise((r) => setImmediate(r));
        else if (pace[n - 1]! > 1) await new Promise((r) => setTimeout(r, pace[n - 1]! - 1));
        yield frame(n);
      }
    }
    const chunks = await chunksOf(() => frames());
    expect(chunks.join("")).toBe(pace.map((_, i) => frameText(frame(i + 1))).join(""));
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.length).toBeLessThan(pace.length);
  });

  it("ends the stream after the frames written before a failure of its source", async () => {
    async function* frames() {
      yield frame(1);
      await new Promise((r) => setTimeout(r, 5));
      yield frame(2);
      throw new Error("the source failed");
    }
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args.join(" "));
    try {
      expect((await chunksOf(() => frames())).join("")).toBe(frameText(frame(1)) + frameText(frame(2)));
    } finally {
      console.error = original;
    }
    expect(errors).toEqual(["autograms serve: a stream failed: the source failed"]);
  });
});

describe("an SSE response written to Node's response", () => {
  it("writes the frames of its first moments in one write, a short stream whole", async () => {
    async function* frames() {
      yield frame(1);
      await new Promise((r) => setImmediate(r));
      yield frame(2);
      await new Promise((r) => setTimeout(r, 2));
      yield frame(3);
    }
    // A first write that waits a second: what is checked does not hang on the machine's pace.
    const s = await serving(() => frames(), undefined, 1000);
    const start = performance.now();
    expect(await (await fetch(s.url)).text()).toBe([1, 2, 3].map((n) => frameText(frame(n))).join(""));
    // Written when the stream ended, not when the wait did.
    expect(performance.now() - start).toBeLessThan(900);
    expect(s.writes).toEqual([[1, 2, 3].map((n) => frameText(frame(n))).join("")]);
  });

  it("sends its headers at once when its first frame is late, then keep-alives while it is quiet", async () => {
    async function* frames() {
      await new Promise((r) => setTimeout(r, 400));
      yield frame(1);
    }
    const s = await serving(() => frames(), 100);
    const start = performance.now();
    const res = await fetch(s.url);
    expect(performance.now() - start).toBeLessThan(300);
    expect(await res.text()).toMatch(/^(: keep-alive\n\n)+id: run:1\n/);
  });

  it("takes frames only as fast as its client reads them, and stops its source when the client goes", async () => {
    let made = 0;
    let stopped = false;
    const pad = "y".repeat(1000);
    async function* frames(signal: AbortSignal) {
      try {
        for (let n = 1; n <= 1_000_000 && !signal.aborted; n++) {
          made++;
          yield { id: `run:${n}`, data: JSON.stringify({ pad }) };
        }
      } finally {
        stopped = true;
      }
    }
    const s = await serving(frames);
    // A client that sends its request and reads nothing: the connection's buffers fill (a few MB
    // on loopback), then the writer's bound, and the source waits (its 1,000,000 frames are 1 GB).
    const u = new URL(s.url);
    const socket = connect(Number(u.port), u.hostname, () => socket.write(`GET / HTTP/1.1\r\nHost: ${u.host}\r\n\r\n`));
    socket.pause();
    let still = -1;
    while (still !== made) {
      still = made;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(made).toBeGreaterThan(10);
    expect(made).toBeLessThan(50_000);
    expect(stopped).toBe(false);
    socket.destroy();
    const deadline = Date.now() + 5000;
    while (!stopped && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(stopped).toBe(true);
  });

  it("takes nothing from its source when its client went away before the answer began", async () => {
    let made = 0;
    async function* frames(signal: AbortSignal) {
      while (!signal.aborted) {
        made++;
        yield frame(made);
        await new Promise((r) => setTimeout(r, 1));
      }
    }
    const s = await serving(frames, undefined, undefined, true);
    const u = new URL(s.url);
    const socket = connect(Number(u.port), u.hostname, () => {
      socket.write(`GET / HTTP/1.1\r\nHost: ${u.host}\r\n\r\n`);
      setTimeout(() => socket.destroy(), 50);
    });
    const deadline = Date.now() + 5000;
    while (s.answered() === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(s.answered()).toBe(1);
    // Without the check, its frames were read for nothing (and a wait for 'drain' or 'close' that
    // had already come never ended).
    await new Promise((r) => setTimeout(r, 300));
    expect(made).toBe(0);
  });
});
