// Both tool samples run by the built `autograms chat` command, which bundles their tool modules
// (and planets.json) with esbuild, against the local OpenAI-compatible server.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startOpenAIServer, type OpenAIServer } from "../support/openai-server.js";
import { autogramsInProcess, cliTestFolder } from "../cli/support/run-cli.js";

cliTestFolder("autograms-tools-");

let server: OpenAIServer;
beforeEach(async () => {
  server = await startOpenAIServer();
});
afterEach(async () => {
  await server.close();
});

const chat = (sample: string, input: string) =>
  autogramsInProcess(["chat", `samples/${sample}/agent.ts`, "--base-url", server.baseURL, "--model", "test-model"], {
    input,
    env: { OPENAI_API_KEY: "test" },
  });

describe("autograms chat with the tool samples", () => {
  it("react-tools: the tools (and the runtime's own) load, and a question is answered in steps", async () => {
    server.enqueue(
      { text: 'Thought: Look it up.\nAction: lookup\nAction Input: {"planet": "Saturn", "fact": "moons"}' },
      { text: " I now know the final answer.\nFinal Answer: Saturn has 146 moons." },
    );
    const r = await chat("react-tools", "How many moons does Saturn have?\n");
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("Agent: Saturn has 146 moons.");
    expect(server.completions[1]!.body.messages[0].content).toContain(
      'Action Input: {"planet": "Saturn", "fact": "moons"}\nObservation: 146\nThought:',
    );
    expect(r.code).toBe(0);
  });

  it("native-tools: the definitions reach the model and the calls run", async () => {
    server.enqueue(
      { toolCalls: [{ id: "c", name: "calculator", arguments: { expression: "146 - 95" } }] },
      { text: "Saturn has 51 more moons than Jupiter." },
    );
    const r = await chat("native-tools", "How many more moons has Saturn than Jupiter?\n");
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("Agent: Saturn has 51 more moons than Jupiter.");
    expect(server.completions[0]!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual([
      "calculator",
      "lookup",
      "convert",
    ]);
    expect(server.completions[1]!.body.messages.at(-1)).toEqual({ role: "tool", tool_call_id: "c", content: "51" });
    expect(r.code).toBe(0);
  });
});
