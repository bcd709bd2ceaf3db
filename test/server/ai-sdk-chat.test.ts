// The AI SDK's own chat client, as useChat drives it: @ai-sdk/react's Chat (useChat is a React
// hook around it) with ai's DefaultChatTransport, against a real server on SQLite: the opening, a
// reply, the history restored, regenerate, stop, and resume of a reply being written. By default
// the versions this repository installs (ai 6, @ai-sdk/react 3, which run on Node 20);
// AUTOGRAMS_AI_SDK_DIR names a node_modules folder holding others (ai 7 and @ai-sdk/react 4 need
// Node 22), whose versions the suite's name says.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { UIMessage } from "ai";
import { Agent } from "@autograms/runtime";
import { echoGraph } from "../store/support/agents.js";
import { json, startTestServer, tempFolder, userMessage, chatBody, type TestServer } from "./support/harness.js";
import { StreamingEcho } from "./support/streaming-echo.js";

const dir = process.env.AUTOGRAMS_AI_SDK_DIR;
const from = createRequire(dir ? join(dir, "..", "package.json") : import.meta.filename);
const version = (name: string) =>
  JSON.parse(readFileSync(from.resolve(`${name}/package.json`), "utf8")).version as string;
const load = async (name: string) => import(pathToFileURL(from.resolve(name)).href);

interface ChatLike {
  messages: UIMessage[];
  status: string;
  sendMessage(message?: { text: string }): Promise<void>;
  regenerate(): Promise<void>;
  stop(): Promise<void>;
  resumeStream(): Promise<void>;
}

const folder = tempFolder("autograms-ai-sdk-chat-");
const model = new StreamingEcho();
let t: TestServer;
let newChat: (id: string, messages?: UIMessage[]) => ChatLike;
beforeAll(async () => {
  t = await startTestServer(folder.path, { agent: new Agent(echoGraph(), { model }) });
  const [{ Chat }, { DefaultChatTransport }] = await Promise.all([load("@ai-sdk/react"), load("ai")]);
  newChat = (id, messages = []) =>
    new Chat({
      id,
      messages,
      transport: new DefaultChatTransport({
        api: `${t.url}/api/chat`,
        prepareReconnectToStreamRequest: () => ({ headers: { "Last-Event-ID": "0" } }),
      }),
    });
});
afterAll(async () => {
  await t?.close();
  folder.remove();
});

const texts = (messages: UIMessage[]) =>
  messages.map((m) => `${m.role}: ${m.parts.map((p) => (p.type === "text" ? p.text : "")).join("")}`);
const saved = async (id: string) => (await fetch(`${t.url}/api/chat/${id}/messages`)).json() as Promise<UIMessage[]>;
const until = async (check: () => boolean) => {
  while (!check()) await new Promise((r) => setTimeout(r, 10));
};

describe(`the AI SDK's Chat (ai ${version("ai")}, @ai-sdk/react ${version("@ai-sdk/react")})`, () => {
  it("opens, answers, restores, regenerates, stops and resumes", async () => {
    const chat = newChat("sdk-1");
    await chat.sendMessage();
    await chat.sendMessage({ text: "hi" });
    expect(texts(chat.messages)).toEqual([
      "assistant: Hello! Say something.",
      "user: hi",
      `assistant: echo: hi #${model.calls}`,
    ]);
    // A page loaded again gets the same messages, ids included.
    expect((await saved("sdk-1")).map((m) => [m.id, ...texts([m])])).toEqual(
      chat.messages.map((m) => [m.id, ...texts([m])]),
    );
    // Regenerate: a new reply to the same message, in place of the old one.
    await chat.regenerate();
    expect(texts(chat.messages).at(-1)).toBe(`assistant: echo: hi #${model.calls}`);
    expect(texts(await saved("sdk-1"))).toEqual(texts(chat.messages));
    // Stop: the Chat's stop() and the server's, then what the server kept.
    const held = model.holdNext();
    const sending = chat.sendMessage({ text: "stop me" });
    await held.started;
    await until(() => chat.status === "streaming");
    await chat.stop();
    expect((await fetch(`${t.url}/api/chat/sdk-1/stop`, { method: "POST" })).status).toBe(200);
    held.open();
    await sending;
    expect(texts(await saved("sdk-1"))).toEqual(texts(chat.messages).slice(0, 3));
    // Resume: another page opens the chat while a reply is being written, and gets all of it.
    const again = model.holdNext();
    const elsewhere = fetch(`${t.url}/api/chat`, json(chatBody("sdk-1", [userMessage("u9", "from elsewhere")])));
    await again.started;
    const reopened = newChat("sdk-1", await saved("sdk-1"));
    const resuming = reopened.resumeStream();
    await until(() => reopened.status === "streaming");
    again.open();
    await resuming;
    await (await elsewhere).text();
    expect(texts(reopened.messages).slice(-2)).toEqual([
      "user: from elsewhere",
      `assistant: echo: from elsewhere #${model.calls}`,
    ]);
    expect(texts(await saved("sdk-1"))).toEqual(texts(reopened.messages));
  });
});
