// A model server for tests with real `autograms chat` processes: the real openai client talks to a
// local OpenAI-compatible server that echoes the user's message, and holds the answer to any
// message containing "slow" until the test releases it, so a test can act while a turn runs.
import { afterAll, beforeAll } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startOpenAIServer, type OpenAIServer, type ServerRequest } from "../../support/openai-server.js";
import { echoGraph } from "./agents.js";
import { startPostgres, type PostgresServer } from "./postgres-server.mjs";

export interface SlowModel {
  server: OpenAIServer;
  /** The chat flags that use it. */
  flags: string[];
  env: Record<string, string>;
  /** Resolves when a held request has arrived (a turn is in progress). */
  held(): Promise<void>;
  /** Answers every held request, and those to come. */
  release(): void;
  /** Holds "slow" requests again. */
  reset(): void;
  close(): Promise<void>;
}

function userText(req: ServerRequest): string {
  const messages = (req.body?.messages ?? []) as { role: string; content: string }[];
  const prompt = [...messages].reverse().find((m) => m.role === "user")?.content ?? "";
  return /^User: (.*)$/m.exec(prompt)?.[1] ?? "";
}

export async function startSlowModel(): Promise<SlowModel> {
  let released = false;
  let free: () => void = () => {};
  let gate = Promise.resolve();
  let arrived: () => void = () => {};
  let arrival = Promise.resolve();
  const arm = () => {
    released = false;
    gate = new Promise<void>((r) => (free = r));
    arrival = new Promise<void>((r) => (arrived = r));
  };
  arm();
  const server = await startOpenAIServer({
    handler: async (req) => {
      const text = userText(req);
      if (text.includes("slow") && !released) {
        arrived();
        await gate;
      }
      return { text: `echo: ${text}` };
    },
  });
  return {
    server,
    flags: ["--base-url", server.baseURL, "--model", "test-model", "--api-key-env", "SLOW_MODEL_KEY"],
    env: { SLOW_MODEL_KEY: "test" },
    held: () => arrival,
    release() {
      released = true;
      free();
      arrival = Promise.resolve();
    },
    reset: arm,
    close: () => server.close(),
  };
}

/** The echo agent's graph as a file `chat` can load. */
export function writeEchoGraph(dir: string): string {
  const file = join(dir, "echo.graph.json");
  writeFileSync(file, JSON.stringify(echoGraph()));
  return file;
}

/** For a test file of real processes: the model server and a Postgres server, started before its tests and stopped after. */
export function slowModelAndPostgres(): { model: () => SlowModel; postgres: () => PostgresServer } {
  let model: SlowModel | undefined;
  let postgres: PostgresServer | undefined;
  beforeAll(async () => {
    [model, postgres] = await Promise.all([startSlowModel(), startPostgres()]);
  });
  afterAll(async () => {
    postgres?.stop();
    await model?.close();
  });
  return { model: () => model!, postgres: () => postgres! };
}
