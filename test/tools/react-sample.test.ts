// samples/react-tools end to end: the real openai client against the local OpenAI-compatible
// server, whose scripted texts are what a ReAct model writes, mistakes included.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildReactPrompt, type ChatTurn } from "@autograms/runtime";
import { startOpenAIServer, type OpenAIServer } from "../support/openai-server.js";
import { reactPlugins } from "../../samples/react-tools/tools.js";
import { Conversation, sampleAgent } from "./support.js";

let server: OpenAIServer;
beforeEach(async () => {
  server = await startOpenAIServer();
});
afterEach(async () => {
  await server.close();
});

/** What the model was given in the i-th completion request: one user message. */
function modelInput(i: number): string {
  const messages = server.completions[i]!.body.messages as { role: string; content: string }[];
  expect(messages).toHaveLength(1);
  expect(messages[0]!.role).toBe("user");
  return messages[0]!.content;
}

const PREFIX = "Continue the transcript below as the assistant, keeping to its format.\n\n";
const promptFor = (history: ChatTurn[], question: string) =>
  buildReactPrompt([...history, [question, ""]], reactPlugins());

const MOONS = "How many moons do Mars and Jupiter have together?";
const MOONS_STEPS = [
  'Thought: I need the moons of Mars.\nAction: lookup\nAction Input: {"planet": "Mars", "fact": "moons"}',
  // A model that runs on past its stop word invents the Observation; the agent cuts it off.
  ' Now Jupiter.\nAction: lookup\nAction Input: {"planet": "Jupiter", "fact": "moons"}\nObservation: 80',
  ' Add them up.\nAction: calculator\nAction Input: {"expression": "2 + 95"}',
  " I now know the final answer.\nFinal Answer: Mars and Jupiter have 97 moons together.",
];
const MOONS_TRANSCRIPT =
  'Thought: I need the moons of Mars.\nAction: lookup\nAction Input: {"planet": "Mars", "fact": "moons"}\nObservation: 2\nThought:' +
  ' Now Jupiter.\nAction: lookup\nAction Input: {"planet": "Jupiter", "fact": "moons"}\nObservation: 95\nThought:' +
  ' Add them up.\nAction: calculator\nAction Input: {"expression": "2 + 95"}\nObservation: 97\nThought:' +
  " I now know the final answer.\nFinal Answer: Mars and Jupiter have 97 moons together.";

describe("samples/react-tools", () => {
  it("answers with the tools, giving the model the reference prompt and each observation", async () => {
    const chat = new Conversation(await sampleAgent("react-tools", server));
    expect(await chat.say("")).toBe("Ask me anything about the planets of the solar system.");
    expect(server.completions).toHaveLength(0);

    server.enqueue(...MOONS_STEPS.map((text) => ({ text })));
    expect(await chat.say(MOONS)).toBe("Mars and Jupiter have 97 moons together.");
    const prompt = promptFor([], MOONS);
    expect(prompt).toContain("lookup: Call this tool to interact with the Planet facts API.");
    expect(modelInput(0)).toBe(`${PREFIX}${prompt}\n`);
    // Each generation continues the transcript so far: the asynchronous lookup's result, 95 not the invented 80.
    expect(modelInput(3)).toBe(
      `${PREFIX}${prompt}${MOONS_TRANSCRIPT.slice(0, MOONS_TRANSCRIPT.lastIndexOf(" I now know"))}\n`,
    );
    expect(chat.saved!.stack[0]!.vars.history).toEqual([[MOONS, MOONS_TRANSCRIPT]]);

    // A follow-up: the earlier question and its reasoning come first, the tools go with it (second-to-last turn).
    server.enqueue(
      {
        text: 'Thought: Jupiter\'s diameter first.\nAction: lookup\nAction Input: {"planet": "Jupiter", "fact": "diameter_km"}',
      },
      { text: ' Now in miles.\nAction: convert\nAction Input: {"value": 142984, "from": "km", "to": "mi"}' },
      { text: " I now know the final answer.\nFinal Answer: About 88,846 miles." },
    );
    expect(await chat.say("And how wide is Jupiter, in miles?")).toBe("About 88,846 miles.");
    expect(modelInput(4)).toBe(
      `${PREFIX}${promptFor([[MOONS, MOONS_TRANSCRIPT]], "And how wide is Jupiter, in miles?")}\n`,
    );
    expect(modelInput(6)).toContain("Observation: 142984\nThought:");
    expect(modelInput(6).endsWith(`Observation: ${(142984 * 1000) / 1609.344}\nThought:\n`)).toBe(true);
    expect(server.pending).toBe(0);
  });

  it("recovers from an unknown tool, malformed input, a failing tool and a reply with no action", async () => {
    const chat = new Conversation(await sampleAgent("react-tools", server));
    await chat.say("");
    server.enqueue(
      { text: 'Thought: I will search the web.\nAction: search\nAction Input: {"query": "Vulcan diameter"}' },
      { text: " Then the lookup.\nAction: lookup\nAction Input: {planet: Vulcan}" },
      { text: ' With JSON.\nAction: lookup\nAction Input: {"planet": "Vulcan"}' },
      { text: ' The calculator then.\nAction: calculator\nAction Input: {"expression": "vulcan * 2"}' },
      { text: " I am not sure what to do." },
      { text: " I now know the final answer.\nFinal Answer: There is no planet called Vulcan in the solar system." },
    );
    expect(await chat.say("How wide is Vulcan?")).toBe("There is no planet called Vulcan in the solar system.");
    const transcript = modelInput(5).slice(`${PREFIX}${promptFor([], "How wide is Vulcan?")}`.length);
    const observations = [...transcript.matchAll(/\nObservation: (.*)\n/g)].map((m) => m[1]);
    expect(observations).toEqual([
      "Error: there is no tool named 'search'; use one of calculator, lookup, convert.",
      expect.stringMatching(
        /^Error: the Action Input is not valid JSON \(.+\); write one JSON object, e\.g\. \{"planet": "Mars"\}$/,
      ),
      "Error: no planet named 'Vulcan' (the planets are Mercury, Venus, Earth, Mars, Jupiter, Saturn, Uranus, Neptune)",
      "Error: vulcan is not defined",
      "Error: write an Action with an Action Input, or a Final Answer.",
    ]);
    expect(server.pending).toBe(0);
  });

  it("stops at the step limit with an answer that says so, and the conversation goes on", async () => {
    const chat = new Conversation(await sampleAgent("react-tools", server));
    await chat.say("");
    const loop = { text: 'Thought: Again.\nAction: calculator\nAction Input: {"expression": "1 + 1"}' };
    server.enqueue(loop, loop, loop, loop, loop, loop);
    expect(await chat.say("Keep adding.")).toBe("I could not work that out in 6 steps.");
    expect(server.completions).toHaveLength(6);
    expect(server.pending).toBe(0);
    server.enqueue({ text: "Thought: I know this.\nFinal Answer: Eight." });
    expect(await chat.say("How many planets are there?")).toBe("Eight.");
  });
});
