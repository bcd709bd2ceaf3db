// `autograms chat` against a model server that makes it wait: a wait it may sit out is shown on
// stderr as it starts, one it may not fails the command at once, saying why.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { autogramsInProcess, cliTestFolder, replies } from "./support/run-cli.js";
import { startOpenAIServer, type OpenAIServer } from "../support/openai-server.js";

cliTestFolder("autograms-model-server-");
const agent = "test/cli/fixtures/greeter/agent.ts";

let server: OpenAIServer;
beforeEach(async () => {
  server = await startOpenAIServer();
});
afterEach(async () => {
  await server.close();
});

const chat = (input: string) =>
  autogramsInProcess(["chat", agent, "--base-url", server.baseURL, "--model", "test-model"], { input });

describe("a busy model server", () => {
  it("shows each wait for a retry while it waits, then goes on", async () => {
    server.enqueue({ status: 503, message: "overloaded", retryAfter: "1" }, { text: "Hello!" });
    const r = await chat("");
    expect(r.code, r.stderr).toBe(0);
    expect(replies(r.stdout)).toEqual(["Hello!"]);
    expect(r.stderr).toBe(
      "model server busy, retrying in 1 s (503 Service Unavailable at node 'answer'; attempt 2 of 3)\n",
    );
  });

  it("fails at once, saying so, when the server asks for a wait over the 60 s limit", async () => {
    server.enqueue({ status: 429, message: "slow down", retryAfter: "100000" });
    const started = Date.now();
    const r = await chat("");
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(
      /error model: node 'answer': the model failed to generate text: the server answered 429 Too Many Requests and asked to be retried in 27\.8 h, longer than the 60 s allowed \(maxRetryAfterMs\)\n/,
    );
  });
});
