// `--model PROVIDER:MODEL`: an AI SDK provider package chosen on the command line, and the model
// names with colons of their own that still go to an OpenAI-compatible server.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { autogramsInProcess, cliTestFolder, replies } from "./support/run-cli.js";
import { startOpenAIServer, type OpenAIServer } from "../support/openai-server.js";

cliTestFolder("autograms-provider-model-");
const agent = "test/cli/fixtures/greeter/agent.ts";

let server: OpenAIServer;
beforeEach(async () => {
  server = await startOpenAIServer();
});
afterEach(async () => {
  await server.close();
});

// The install advice names the line that runs on this Node: ai 7's providers need Node 22.
const major = Number(process.versions.node.split(".")[0]) >= 22 ? 4 : 3;

const chat = (args: string[], env: Record<string, string> = {}, input = "") =>
  autogramsInProcess(["chat", agent, ...args], { input, env });

describe("--model PROVIDER:MODEL", () => {
  it("talks through the provider's package (openai-compatible on --base-url)", async () => {
    server.enqueue({ text: "Hello!" }, { text: "Hi again." });
    const r = await chat(["--model", "openai-compatible:test-model", "--base-url", server.baseURL], {}, "hi\n");
    expect(r.code, r.stderr).toBe(0);
    expect(replies(r.stdout)).toEqual(["Hello!", "Hi again."]);
    expect(server.completions[0]!.body.model).toBe("test-model");
    expect(server.completions[1]!.body.messages.at(-1).content).toMatch(/^User: hi\n/);
  });

  it("passes the key named by --api-key-env", async () => {
    server.enqueue({ text: "Hello!" });
    const r = await chat(
      ["--model", "openai-compatible:test-model", "--base-url", server.baseURL, "--api-key-env", "MY_KEY"],
      { MY_KEY: "sk-mine" },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(server.completions[0]!.headers.authorization).toBe("Bearer sk-mine");
  });

  it("keeps a model name whose prefix is no provider whole (llama3.1:8b on an OpenAI-compatible server)", async () => {
    server.enqueue({ text: "Hello!" });
    const r = await chat(["--model", "llama3.1:8b", "--base-url", server.baseURL]);
    expect(r.code, r.stderr).toBe(0);
    expect(server.completions[0]!.body.model).toBe("llama3.1:8b");
  });

  it.each([
    [
      ["--model", "anthropic:claude-sonnet-4-5"],
      { ANTHROPIC_API_KEY: "" },
      "--model anthropic:claude-sonnet-4-5: set ANTHROPIC_API_KEY (or name another variable with --api-key-env VAR)",
    ],
    [
      ["--model", "anthropic:claude-sonnet-4-5"],
      { ANTHROPIC_API_KEY: "sk-x" },
      `--model anthropic:claude-sonnet-4-5: the @ai-sdk/anthropic package is not installed: npm install @ai-sdk/anthropic@${major}`,
    ],
    [
      ["--model", "ollama:llama3.2"],
      {},
      `--model ollama:llama3.2: the ollama-ai-provider-v2 package is not installed: npm install ollama-ai-provider-v2@${major}`,
    ],
    [["--model", "openai-compatible:m"], {}, "--model openai-compatible:m: give the server with --base-url URL"],
    [
      ["--model", "groq:"],
      { GROQ_API_KEY: "k" },
      "--model groq:: name the model after the colon, e.g. --model groq:MODEL",
    ],
  ])("says what is missing: %j", async (args, env, message) => {
    const r = await chat(args, env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(server.requests).toHaveLength(0);
  });
});
