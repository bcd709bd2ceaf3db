// Trace events carry how long their step waited: a generation for the model (every attempt), a
// decision for the model, a native tool call for the tool; steps that wait for nothing carry none.
import { describe, expect, it } from "vitest";
import { Agent, ScriptedModel, defineTool, type GraphNode, type TraceEvent } from "@autograms/runtime";
import { graph } from "./helpers.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const later =
  <T>(ms: number, value: T) =>
  async () => {
    await sleep(ms);
    return value;
  };

const nodes: GraphNode[] = [
  { name: "plan", action: "thought", instruction: "Plan.", transitions: ["look"] },
  { name: "look", action: "thought", instruction: "Look it up.", tools: ["lookup"], transitions: ["count"] },
  { name: "count", action: "code", instruction: "let n = 1", transitions: ["route"] },
  {
    name: "route",
    action: "transition",
    transitions: ["yes", "no"],
    transition_question: "Found?",
    transition_choices: ["yes", "no"],
  },
  { name: "yes", action: "chat_exact", instruction: "Found.", transitions: ["quit"] },
  { name: "no", action: "chat_exact", instruction: "Not found.", transitions: ["quit"] },
] as GraphNode[];

describe("durations in trace events", () => {
  it("are the time each step waited for the model or the tool", async () => {
    const model = new ScriptedModel({
      // The first answer is refused (a banned phrase) and asked for again: both waits count.
      complete: [later(30, "As an AI, I plan."), later(30, "A plan.")],
      // The model's waits around the tool are long beside the tool's own, so that a timer late on a
      // busy machine does not make the tool's wait look like the generation's.
      tools: [later(80, { toolCalls: [{ name: "lookup", arguments: {} }] }), later(80, "It is 7.")],
      choose: [later(30, "yes")],
    });
    const agent = new Agent(graph(nodes, { tools: { lookup: { module: "./tools.js", export: "lookup" } } }), {
      model,
      tools: {
        lookup: defineTool({
          name: "lookup",
          description: "Looks it up.",
          parameters: { type: "object", properties: {} },
          run: later(25, 7),
        }),
      },
      config: { bannedPhrases: ["As an AI"] },
    });
    const events: TraceEvent[] = [];
    const { reply } = await agent.reply("", undefined, { trace: (e) => events.push(e) });
    expect(reply).toBe("Found.");
    const at = (node: string, kind: string) => events.find((e) => e.node === node && e.kind === kind)!;
    expect(at("plan", "generate").ms).toBeGreaterThanOrEqual(55);
    expect(at("look", "tool_call").ms).toBeGreaterThanOrEqual(22);
    // The tool's wait is its own, not the generation's around it (which waits 160 ms for the model).
    expect(at("look", "tool_call").ms).toBeLessThan(at("look", "generate").ms!);
    expect(at("look", "generate").ms).toBeGreaterThanOrEqual(155);
    expect(at("route", "transition").ms).toBeGreaterThanOrEqual(27);
    for (const e of events.filter((e) => ["code", "exact"].includes(e.kind))) expect(e.ms, e.kind).toBeUndefined();
    // Plain JSON, to 0.1 ms.
    for (const e of events) if (e.ms !== undefined) expect(Math.round(e.ms * 10)).toBe(e.ms * 10);
  });
});
