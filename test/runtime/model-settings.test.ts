// A run's model settings (RunOptions.modelSettings) reach the server's requests through the real
// openai client, ride on the events of the model calls they applied to, and a replay gives the
// recorded answers whatever they were.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  Agent,
  AgentError,
  OpenAIModel,
  ReplayModel,
  ScriptedModel,
  settingsOfTrace,
  type ChatModel,
  type GraphNode,
} from "@autograms/runtime";
import { startOpenAIServer, type OpenAIServer } from "../support/openai-server.js";
import { collect, graph } from "./helpers.js";

let server: OpenAIServer;
beforeEach(async () => {
  server = await startOpenAIServer();
});
afterEach(async () => {
  await server.close();
});

const nodes: GraphNode[] = [
  { name: "greet", action: "chat", instruction: "Greet the user.", transitions: ["answer"] },
  { name: "answer", action: "chat", instruction: "Answer.", transitions: ["answer"] },
] as GraphNode[];

const agentWith = (model: ChatModel) => new Agent(graph(nodes), { model });
const openai = () =>
  new OpenAIModel({ model: "test-model", baseURL: server.baseURL, apiKey: "k", temperature: 0.2, maxTokens: 100 });

describe("model settings of a run", () => {
  it("send the run's model, temperature and bound on tokens, and are recorded on its model calls", async () => {
    server.enqueue(
      { text: "Hello!", usage: { prompt_tokens: 10, completion_tokens: 2 } },
      { text: "Sure.", usage: { prompt_tokens: 12, completion_tokens: 2 } },
    );
    const agent = agentWith(openai());
    const first = collect();
    const settings = { model: "bigger-model", temperature: 1.1, maxTokens: 30 };
    const r = await agent.reply("hi", undefined, { trace: first.trace, modelSettings: settings });
    expect(r.reply).toBe("Hello!");
    expect(server.completions[0]!.body).toMatchObject({ model: "bigger-model", temperature: 1.1, max_tokens: 30 });
    const generated = first.events.find((e) => e.kind === "generate")!;
    expect(generated.settings).toEqual(settings);
    // The tokens are priced as the model that used them.
    expect(generated.usage).toEqual({ model: "bigger-model", inputTokens: 10, outputTokens: 2 });
    expect(first.events.filter((e) => e.kind !== "generate").every((e) => e.settings === undefined)).toBe(true);
    expect(settingsOfTrace(first.events)).toEqual(settings);

    // The next run without settings is the model as it was made.
    const second = collect();
    await agent.reply("more", r.memory, { trace: second.trace });
    expect(server.completions[1]!.body).toMatchObject({ model: "test-model", temperature: 0.2, max_tokens: 100 });
    expect(settingsOfTrace(second.events)).toBeUndefined();
  });

  it("keep what was not given as the model was made", async () => {
    server.enqueue({ text: "Hello!" });
    await agentWith(openai()).reply("hi", undefined, { modelSettings: { temperature: 0 } });
    expect(server.completions[0]!.body).toMatchObject({ model: "test-model", temperature: 0, max_tokens: 100 });
  });

  it("are refused, naming the field, when out of range", async () => {
    const agent = agentWith(openai());
    const refusal = (settings: unknown) =>
      agent.reply("hi", undefined, { modelSettings: settings as never }).then(
        () => undefined,
        (err: unknown) => err,
      );
    const hot = await refusal({ temperature: 3 });
    expect(hot).toBeInstanceOf(AgentError);
    expect((hot as Error).message).toBe("modelSettings.temperature must be a number from 0 to 2");
    expect(((await refusal({ maxTokens: 0.5 })) as Error).message).toBe(
      "modelSettings.maxTokens must be a whole number, at least 1",
    );
    expect(((await refusal({ top_p: 1 })) as Error).message).toBe(
      "modelSettings.top_p is not a model setting (model, temperature, maxTokens)",
    );
    expect(server.completions).toHaveLength(0);
  });

  it("are refused by a model that takes none", async () => {
    const agent = agentWith(new ScriptedModel([{ text: "hi" }] as never));
    await expect(agent.reply("hi", undefined, { modelSettings: { temperature: 1 } })).rejects.toThrow(
      "modelSettings: the model 'scripted' takes no settings (it has no withSettings())",
    );
  });

  it("leave a replay's recorded answers as they were", async () => {
    server.enqueue({ text: "Hello!" });
    const settings = { temperature: 0.9 };
    const recorded = collect();
    await agentWith(openai()).reply("hi", undefined, { trace: recorded.trace, modelSettings: settings });
    const replayed = collect();
    const r = await agentWith(new ReplayModel(recorded.events)).reply("hi", undefined, {
      trace: replayed.trace,
      modelSettings: settings,
    });
    expect(r.reply).toBe("Hello!");
    expect(replayed.events.map((e) => e.settings)).toEqual(recorded.events.map((e) => e.settings));
  });
});
