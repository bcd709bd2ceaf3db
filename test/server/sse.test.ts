// An SSE response writes the frames that are ready together as one chunk, in their order, and
// loses none whatever their pace; a reconnecting client still gets exactly the frames after its
// Last-Event-ID (resume.test.ts covers the routes).
import { describe, expect, it } from "vitest";
import { frameText, sseResponse, type SseFrame } from "../../server/src/http/sse.js";

async function chunksOf(res: Response): Promise<string[]> {
  const decoder = new TextDecoder();
  const chunks: string[] = [];
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) chunks.push(decoder.decode(chunk));
  return chunks;
}

const frame = (n: number): SseFrame => ({ id: `run:${n}`, event: n % 2 ? "step" : undefined, data: `{"n":${n}}` });

describe("an SSE response", () => {
  it("writes frames ready at once as one chunk, and those that come later in their own", async () => {
    async function* frames() {
      for (let n = 1; n <= 5; n++) yield frame(n);
      await new Promise((r) => setTimeout(r, 30));
      for (let n = 6; n <= 8; n++) yield frame(n);
    }
    const chunks = await chunksOf(sseResponse(() => frames(), {}));
    expect(chunks).toEqual(
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
    const chunks = await chunksOf(sseResponse(() => frames(), {}));
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
      expect((await chunksOf(sseResponse(() => frames(), {}))).join("")).toBe(
        frameText(frame(1)) + frameText(frame(2)),
      );
    } finally {
      console.error = original;
    }
    expect(errors).toEqual(["autograms serve: a stream failed: the source failed"]);
  });
});
