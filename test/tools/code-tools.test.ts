// Tools called from agent code: a failure fails the node with its location, or, through tryTool,
// is a value the agent handles; the runtime's own tool functions; tools that describe themselves.
import { describe, expect, it } from "vitest";
import { compile } from "@autograms/compiler";
import {
  Agent,
  AgentError,
  RUNTIME_TOOLS,
  ScriptedModel,
  buildReactPrompt,
  defineTool,
  reactPlugin,
  toolDefinitionOf,
  tryTool,
  type Graph,
  type Tool,
} from "@autograms/runtime";

/** Compiles an agent whose main() is `body`, importing `names` from ./tools.js. */
function agentOf(body: string, tools: Record<string, Tool>): Agent {
  const source = `import { Autogram, chatExact, tryTool, buildReactPrompt, parseLatestPluginCall } from "@autograms/runtime";
import { ${Object.keys(tools).join(", ")} } from "./tools.js";
export default class A extends Autogram {
  main() {
${body}
  }
}
`;
  const { graph, diagnostics } = compile(source, { fileName: "agent.ts" });
  expect(diagnostics).toEqual([]);
  return new Agent(graph as Graph, { model: new ScriptedModel({}), tools });
}

const tools = {
  half: (n: number) => {
    if (n % 2) throw new Error(`${n} is odd`);
    return n / 2;
  },
  later: async (word: string) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (word === "") throw new Error("nothing to look up");
    return { word, length: word.length };
  },
  nothing: () => undefined,
};

describe("a tool that throws", () => {
  it("called directly, fails the node at the line that calls it", async () => {
    const agent = agentOf(`    const h = half(3);\n    chatExact(\`\${h}\`);`, tools);
    const error = await agent.reply("").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentError);
    expect(error).toMatchObject({ code: "sandbox", location: "agent.ts:5:5" });
    expect((error as Error).message).toContain("the tool 'half' failed: 3 is odd");
  });

  it("through tryTool, is a value: { ok: false, error } (awaited for async tools), { ok: true, value } otherwise", async () => {
    const agent = agentOf(
      `
    const a = tryTool(half, 3);
    const b = tryTool(half, 4);
    const c = tryTool(later, "");
    const d = tryTool(later, "moon");
    const e = tryTool(nothing);
    chatExact(\`\${JSON.stringify([a, b, c, d, e])}\`);`,
      tools,
    );
    const r = await agent.reply("");
    expect(JSON.parse(r.reply!)).toEqual([
      { ok: false, error: "3 is odd" },
      { ok: true, value: 2 },
      { ok: false, error: "nothing to look up" },
      { ok: true, value: { word: "moon", length: 4 } },
      { ok: true, value: null },
    ]);
  });

  it("tryTool is part of the agent language: calling it outside an agent says so", () => {
    expect(() => tryTool(tools.half, 2)).toThrow(/tryTool\(\) is part of the agent language/);
  });
});

describe("the runtime's own tool functions", () => {
  const plugins = [
    { name_for_model: "half", name_for_human: "Half", description_for_model: "Halves a number.", parameters: [] },
  ];

  it("build ReAct prompts and parse model text in agent code, exactly as in TypeScript", async () => {
    const agent = agentOf(
      `
    const prompt = buildReactPrompt([["What is half of 8?", ""]], ${JSON.stringify(plugins)});
    const call = parseLatestPluginCall("Thought: halve it\\nAction: half\\nAction Input: 8");
    const result = half(Number(call.args));
    chatExact(\`\${JSON.stringify({ prompt, call, result })}\`);`,
      { half: tools.half },
    );
    const r = JSON.parse((await agent.reply("")).reply!);
    expect(r.prompt).toBe(buildReactPrompt([["What is half of 8?", ""]], plugins));
    expect(r.call).toEqual({ name: "half", args: "8", text: "Thought: halve it\nAction: half\nAction Input: 8" });
    expect(r.result).toBe(4);
  });

  it("are the runtime's implementations whatever a loader passes for them", async () => {
    const agent = (() => {
      const source = `import { Autogram, chatExact, tryTool } from "@autograms/runtime";
import { half } from "./tools.js";
export default class A extends Autogram { main() { const r = tryTool(half, 5); chatExact(\`\${r.ok}\`); } }
`;
      const graph = compile(source, { fileName: "agent.ts" }).graph as Graph;
      // As a loader that bundles every module the graph names would: the real export, which refuses to run.
      return new Agent(graph, { model: new ScriptedModel({}), tools: { half: tools.half, tryTool: tryTool as Tool } });
    })();
    expect((await agent.reply("")).reply).toBe("false");
    expect(RUNTIME_TOOLS).toEqual(["tryTool", "buildReactPrompt", "parseLatestPluginCall"]);
  });

  it("an unsupported args_format fails the node; through tryTool it is an error value", async () => {
    const bad = JSON.stringify([{ ...plugins[0], args_format: "xml" }]);
    const failing = agentOf(`    const p = buildReactPrompt([["q", ""]], ${bad});`, {});
    await expect(failing.reply("")).rejects.toMatchObject({ code: "sandbox", location: "agent.ts:5:5" });
    const handled = agentOf(
      `    const p = tryTool(buildReactPrompt, [["q", ""]], ${bad});\n    chatExact(\`\${p.ok}\`);`,
      {},
    );
    expect((await handled.reply("")).reply).toBe("false");
  });
});

describe("defineTool", () => {
  const area = defineTool({
    name: "area",
    title: "Area",
    description: "The area of a rectangle.",
    strict: true,
    parameters: {
      type: "object",
      properties: { width: { type: "number", description: "in metres" }, height: { type: "number" } },
      required: ["width"],
    },
    run: ({ width, height = width }: { width: number; height?: number }) => width * height,
  });

  it("is still the function, with its definition attached", () => {
    expect(area({ width: 2, height: 3 })).toBe(6);
    expect(area.name).toBe("area");
    expect(toolDefinitionOf(area)).toEqual({
      name: "area",
      description: "The area of a rectangle.",
      strict: true,
      parameters: {
        type: "object",
        properties: { width: { type: "number", description: "in metres" }, height: { type: "number" } },
        required: ["width"],
      },
    });
    expect(Object.isFrozen(area.definition.parameters)).toBe(true);
    expect(toolDefinitionOf(() => 1)).toBeUndefined();
  });

  it("describes the tool for ReAct prompts: one parameter per property, with its description and whether it is required", () => {
    expect(reactPlugin(area)).toEqual({
      name_for_model: "area",
      name_for_human: "Area",
      description_for_model: "The area of a rectangle.",
      parameters: [
        { name: "width", description: "in metres", required: true, schema: { type: "number" } },
        { name: "height", description: "", required: false, schema: { type: "number" } },
      ],
    });
    expect(buildReactPrompt([["q", ""]], [reactPlugin(area)])).toContain(
      'area: Call this tool to interact with the Area API. What is the Area API useful for? The area of a rectangle. Parameters: [{"name": "width", "description": "in metres", "required": true, "schema": {"type": "number"}}, {"name": "height", "description": "", "required": false, "schema": {"type": "number"}}] Format the arguments as a JSON object.',
    );
  });

  it.each([
    ["a name the API refuses", { name: "two words" }, /the name "two words" must be 1 to 64 letters/],
    ["no run function", { run: undefined }, /run must be a function/],
    [
      "parameters that are not an object schema",
      { parameters: { type: "string" } },
      /parameters must be a JSON Schema of type "object"/,
    ],
  ])("refuses %s", (_, change, message) => {
    const spec = {
      name: "t",
      description: "d",
      parameters: { type: "object", properties: {} },
      run: () => 1,
      ...change,
    };
    expect(() => defineTool(spec as never)).toThrow(message);
  });
});

describe("a traced run's calls from code", () => {
  it("are tool_call events of round 0, before the step's event: each tool as called, tryTool's by the tool's name", async () => {
    const agent = agentOf(
      `
    const a = tryTool(half, 3);
    const b = later("moon");
    const c = half(4) + tryTool(later, "").ok;
    chatExact(\`\${a.ok} \${b.length} \${c}\`);`,
      tools,
    );
    const events: { kind: string; node: string }[] = [];
    const r = await agent.reply("", undefined, { trace: (e) => events.push(e) });
    expect(r.reply).toBe("false 4 2");
    const calls = events.filter((e) => e.kind === "tool_call");
    expect(calls).toMatchObject([
      { tool: "half", id: "", round: 0, arguments: "[3]", error: "3 is odd" },
      { tool: "later", id: "", round: 0, arguments: '["moon"]', result: { word: "moon", length: 4 } },
      { tool: "half", id: "", round: 0, arguments: "[4]", result: 2 },
      { tool: "later", id: "", round: 0, arguments: '[""]', error: "nothing to look up" },
    ]);
    // Each before the event of the step whose code made it.
    for (const call of calls) {
      const next = events[events.indexOf(call) + 1]!;
      expect(next.node).toBe(call.node);
      expect(["tool_call", "code"]).toContain(next.kind);
    }
    // Untraced, nothing is recorded (and the run is the same).
    expect((await agent.reply("")).reply).toBe("false 4 2");
  });
});
