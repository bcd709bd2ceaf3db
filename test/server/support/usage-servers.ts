// Servers of the usage agent (usage-agent.ts) for the API tests whose model is the real openai
// client on the local OpenAI-compatible test server: one SQLite store and one test server for the
// file, any number of servers on them, all gone after the file's tests.
import { afterAll, beforeAll, expect } from "vitest";
import { join } from "node:path";
import { Agent, type ChatModel } from "@autograms/runtime";
import { listen, type ListenOptions, type RunningServer } from "@autograms/server";
import { openStore, type Store } from "@autograms/store";
import { startOpenAIServer, type OpenAIServer, type OpenAIServerOptions } from "../../support/openai-server.js";
import { graph } from "../../runtime/helpers.js";
import { json, tempFolder } from "./harness.js";
import { usageNodes } from "./usage-agent.js";

export interface UsageServers {
  readonly store: Store;
  readonly openai: OpenAIServer;
  /** A server of the usage agent named `agent` on `model`, with `options`: its URL. */
  serve(agent: string, model: ChatModel, options?: Partial<ListenOptions>): Promise<string>;
  /** Sends `message` to the thread and reads its run's stream to the end. */
  say(url: string, thread: string, message: string, messageId?: string): Promise<void>;
}

export function usageServers(prefix: string, openaiOptions: OpenAIServerOptions = {}): UsageServers {
  const folder = tempFolder(prefix);
  let store: Store | undefined;
  let openai: OpenAIServer | undefined;
  const servers: RunningServer[] = [];
  beforeAll(async () => {
    store = await openStore(`sqlite:${join(folder.path, "threads.db")}`);
    openai = await startOpenAIServer(openaiOptions);
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    await store?.close();
    await openai?.close();
    folder.remove();
  });
  return {
    get store() {
      return store!;
    },
    get openai() {
      return openai!;
    },
    async serve(agent, model, options = {}) {
      const server = await listen({
        agent: new Agent(graph(usageNodes, { agent }), { model }),
        store: store!,
        port: 0,
        ...options,
      });
      servers.push(server);
      return server.url;
    },
    async say(url, thread, message, messageId) {
      const res = await fetch(
        `${url}/api/threads/${thread}/runs`,
        json({ message, ...(messageId !== undefined && { messageId }) }),
      );
      expect(res.status).toBe(200);
      await res.text();
    },
  };
}
