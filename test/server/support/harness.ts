// A real server on loopback for the server's tests: the app of @autograms/server on a Node HTTP
// server (port 0), a real SQLite store in a temporary folder, and the echo agent of the store's
// tests (its model deterministic, and held by a gate when a test needs a run in progress).
import { afterAll, beforeAll } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  parseJsonEventStream,
  readUIMessageStream,
  uiMessageChunkSchema,
  type UIMessage,
  type UIMessageChunk,
} from "ai";
import { openStore, type Store, type StoreOptions } from "@autograms/store";
import { listen, type ListenOptions, type RunningServer } from "@autograms/server";
import { EchoModel, echoAgent, gate } from "../../store/support/agents.js";

export interface TestServer {
  url: string;
  store: Store;
  model: EchoModel;
  server: RunningServer;
  close(): Promise<void>;
}

export function tempFolder(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** For a test file: a folder and a server in it for all its tests, both gone after them. */
export function serverForFile(prefix: string): { folder: () => string; server: () => TestServer } {
  let folder: { path: string; remove(): void } | undefined;
  let server: TestServer | undefined;
  beforeAll(async () => {
    folder = tempFolder(prefix);
    server = await startTestServer(folder.path);
  });
  afterAll(async () => {
    await server?.close();
    folder?.remove();
  });
  return { folder: () => folder!.path, server: () => server! };
}

/** A server on `storeUrl` (default: a new SQLite file in `dir`). */
export async function startTestServer(
  dir: string,
  options: Partial<ListenOptions> & { storeUrl?: string; storeOptions?: StoreOptions; model?: EchoModel } = {},
): Promise<TestServer> {
  const { storeUrl, storeOptions, model = new EchoModel(), ...rest } = options;
  const store =
    options.store ??
    (await openStore(storeUrl ?? `sqlite:${join(dir, `${Math.random().toString(36).slice(2)}.db`)}`, storeOptions));
  const server = await listen({ agent: echoAgent(model), store, port: 0, flushMs: 20, ...rest });
  return {
    url: server.url,
    store,
    model,
    server,
    async close() {
      await server.close();
      if (!options.store) await store.close();
    },
  };
}

/** Holds the model's next replies until `open()`. */
export function hold(model: EchoModel) {
  const g = gate();
  model.gate = g.promise;
  const started = model.nextStart();
  return {
    started,
    open: () => {
      model.gate = null;
      g.open();
    },
  };
}

/** Resolves once the thread has `version` turns and its latest run is finished (stored). */
export async function settled(s: TestServer, thread: string, version: number): Promise<void> {
  while (
    (await s.store.thread(thread))?.version !== version ||
    (await s.store.latestRun(thread))?.status !== "finished"
  ) {
    await new Promise((r) => setTimeout(r, 10));
  }
}

export const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

/** A user message as `useChat` sends it. */
export const userMessage = (id: string, text: string) => ({ id, role: "user", parts: [{ type: "text", text }] });

export const chatBody = (thread: string, messages: unknown[]) => ({ id: thread, messages, trigger: "submit-message" });

export interface Frame {
  /** `RUN:N` */
  id: string;
  event?: string;
  data: string;
}

/** The frames of an SSE body, as sent (every frame here has an id). */
export async function sseFrames(res: Response): Promise<Frame[]> {
  const text = await res.text();
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "" && !block.startsWith(":"))
    .map((block) => {
      const frame: Partial<Frame> = {};
      for (const line of block.split("\n")) {
        const at = line.indexOf(": ");
        const [key, value] = [line.slice(0, at), line.slice(at + 2)];
        if (key === "id") frame.id = value;
        else if (key === "event") frame.event = value;
        else if (key === "data") frame.data = value;
        else throw new Error(`unexpected SSE line: ${line}`);
      }
      return frame as Frame;
    });
}

/** Reads frames from a streaming response until `until` says stop, then drops the connection (a client that goes away). */
export async function readUntil(res: Response, until: (f: Frame) => boolean): Promise<Frame[]> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    const frames = await sseFrames(new Response(text.slice(0, text.lastIndexOf("\n\n") + 2)));
    if (frames.some(until)) {
      await reader.cancel();
      return frames;
    }
  }
  return sseFrames(new Response(text));
}

export async function drain<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(value);
  }
}

/** The UI message stream's chunks, read by the `ai` package's own parser (as `useChat` reads them). */
export async function uiChunks(body: ReadableStream<Uint8Array>): Promise<UIMessageChunk[]> {
  return (await drain(parseJsonEventStream({ stream: body, schema: uiMessageChunkSchema }))).map((parsed) => {
    if (!parsed.success) throw parsed.error;
    return parsed.value as UIMessageChunk;
  });
}

/** The assistant message the `ai` package builds from the chunks (`readUIMessageStream`). */
export async function uiMessageOf(chunks: UIMessageChunk[]): Promise<UIMessage> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(c) {
      for (const chunk of chunks) c.enqueue(chunk);
      c.close();
    },
  });
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream })) last = message;
  return last!;
}

export const textOf = (m: UIMessage) => m.parts.flatMap((p) => (p.type === "text" ? [p.text] : []));

/** The number of a frame within its run (`RUN:N`). */
export const frameNumber = (f: Frame): number => Number(f.id.slice(f.id.lastIndexOf(":") + 1));
