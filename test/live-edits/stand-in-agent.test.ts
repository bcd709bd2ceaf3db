// The agent `serve --watch` keeps in the server's thread when worker threads play the turns: the
// graph with stand-ins for the tools and the custom actions' hooks, built from what a worker tells
// of the modules it loaded. It holds the same graph (hash, stale check) as the workers' agent, and
// says where the code runs if it is ever asked to run it.
import { describe, expect, it } from "vitest";
import { Agent, defineAction, defineTool, type GraphNode } from "@autograms/runtime";
import { hostShapeOf, standInAgent } from "../../cli/src/agent-loading/stand-in-agent.js";
import { graph, n, TestModel } from "../runtime/helpers.js";

const lookup = defineTool({
  name: "lookup",
  description: "Looks a word up.",
  parameters: { type: "object", properties: { word: { type: "string" } }, required: ["word"] },
  run: ({ word }: { word: string }) => word.length,
});
const confirm = defineAction({
  name: "confirm",
  effects: { assign: ["confirmed"] },
  instruction: (ctx) => ({ reply: `You said ${ctx.userReply}?`, assign: { confirmed: true } }),
  transition: () => null,
});

const g = graph(
  [
    n({ name: "ask", action: "chat_exact", instruction: "Your word?", transitions: ["check"] }),
    n({ name: "check", action: "confirm", transitions: ["answer"] } as Partial<GraphNode> as GraphNode),
    n({ name: "answer", action: "chat", instruction: "Explain it.", tools: ["lookup"] } as GraphNode),
  ],
  {
    tools: { lookup: { module: "./words.js", export: "lookup" } },
    actions: {
      confirm: { module: "./actions.js", export: "confirm", decides: true, effects: { assign: ["confirmed"] } },
    },
  },
);

describe("the server thread's stand-in agent", () => {
  it("holds the workers' graph and resumes their memory, but runs no tool, hook or model", async () => {
    const real = new Agent(g, { model: new TestModel(), tools: { lookup }, actions: [confirm] });
    const shape = hostShapeOf({ lookup }, [confirm]);
    // Plain data: it crosses from a worker to the server's thread.
    expect(structuredClone(shape)).toEqual(shape);
    const stand = standInAgent(g, shape);
    expect(stand.graphHash).toBe(real.graphHash);
    const { memory } = await real.reply("");
    expect(() => stand.checkMemory(memory)).not.toThrow();
    expect(stand.staleProblem(memory)).toBeNull();
    await expect(stand.reply("tea", memory)).rejects.toThrow(
      /the instruction hook of action 'confirm' runs in the worker threads that play the turns, not in the command's own thread/,
    );
  });

  it("needs the definitions of the tools offered to the model, which the workers tell it", () => {
    const told = hostShapeOf({ lookup }, [confirm]);
    expect(() => standInAgent(g, { ...told, tools: {} })).toThrow(/offers tool 'lookup' to the model/);
    expect(() => standInAgent(g, told)).not.toThrow();
  });
});
