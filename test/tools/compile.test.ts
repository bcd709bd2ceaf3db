// How the compiler records tools: imported functions, the runtime's own tool functions, tryTool's
// tool argument, and the `tools` field of chat and thought nodes.
import { describe, expect, it } from "vitest";
import { compile } from "@autograms/compiler";
import type { GraphNode } from "@autograms/runtime";

function compiled(body: string, imports = `import { lookup, add } from "./tools.js";`) {
  const source = `import { Autogram, chat, chatExact, thought, tryTool, buildReactPrompt, parseLatestPluginCall as parse } from "@autograms/runtime";
${imports}
export default class A extends Autogram {
  main() {
${body}
  }
}
`;
  return compile(source, { fileName: "agent.ts" });
}

const node = (graph: { nodes: GraphNode[] } | null, name: string) => graph?.nodes.find((n) => n.name === name);
const codeOf = (graph: { nodes: GraphNode[] } | null) =>
  graph?.nodes.filter((n) => n.action === "code").map((n) => n.instruction) ?? [];

describe("tools in code", () => {
  it("records the runtime's tool functions under their local names, and leaves out what is not used", () => {
    const { graph, diagnostics } = compiled(`
    const call = parse("Action: lookup\\nAction Input: {}");
    const prompt = buildReactPrompt([["q", ""]], []);
    chatExact(\`\${call.name} \${prompt}\`);`);
    expect(diagnostics).toEqual([]);
    expect(graph!.tools).toEqual({
      parse: { module: "@autograms/runtime", export: "parseLatestPluginCall" },
      buildReactPrompt: { module: "@autograms/runtime", export: "buildReactPrompt" },
    });
    expect(codeOf(graph)).toContain('const call = parse("Action: lookup\\nAction Input: {}")');
  });

  it("writes the tool that tryTool calls as its name, since the sandbox calls tools by name", () => {
    const { graph, diagnostics } = compiled(`
    const found = tryTool(lookup, { word: this._last_user_reply });
    if (found.ok) { chatExact(\`\${found.value}\`); }`);
    expect(diagnostics).toEqual([]);
    expect(codeOf(graph)).toContain('const found = tryTool("lookup", { word: _last_user_reply })');
    expect(graph!.tools).toEqual({
      tryTool: { module: "@autograms/runtime", export: "tryTool" },
      lookup: { module: "./tools.js", export: "lookup" },
    });
  });

  it("keeps an aliased tryTool an alias in code and in the tools table", () => {
    const source = `import { Autogram, tryTool as attempt } from "@autograms/runtime";
import { lookup } from "./tools.js";
export default class A extends Autogram {
  main() { const r = attempt(lookup, "x"); }
}
`;
    const { graph, diagnostics } = compile(source, { fileName: "agent.ts" });
    expect(diagnostics).toEqual([]);
    expect(codeOf(graph)).toEqual(['const r = attempt("lookup", "x")']);
    expect(graph!.tools!.attempt).toEqual({ module: "@autograms/runtime", export: "tryTool" });
  });

  it("refuses tryTool on something that is not an imported tool, where it is written", () => {
    const { graph, diagnostics } = compiled(`    const r = tryTool((x: string) => x, "a");`);
    expect(graph).toBeNull();
    expect(diagnostics).toMatchObject([
      {
        code: "unsupported_syntax",
        line: 5,
        column: 23,
        message: expect.stringContaining("tryTool() takes an imported tool as its first argument"),
      },
    ]);
  });
});

describe("the tools field", () => {
  it("takes the imported functions or their names, and records each tool", () => {
    const { graph, diagnostics } = compiled(`
    chat("Answer.", { name: "a", tools: [lookup, "add"] });
    thought("Think.", { name: "t", tools: ["lookup"] });`);
    expect(diagnostics).toEqual([]);
    expect(node(graph, "a")).toMatchObject({ action: "chat", tools: ["lookup", "add"] });
    expect(node(graph, "t")).toMatchObject({ action: "thought", tools: ["lookup"] });
    expect(Object.keys(graph!.tools!).sort()).toEqual(["add", "lookup"]);
  });

  it("also in exec_node", () => {
    const { graph, diagnostics } = compiled(
      `    exec_node({ action: "thought_qa", name: "q", instruction: "Look it up.", tools: [lookup] });`,
      `import { lookup } from "./tools.js";\nimport { exec_node } from "@autograms/runtime";`,
    );
    expect(diagnostics).toEqual([]);
    expect(node(graph, "q")).toMatchObject({ action: "thought_qa", tools: ["lookup"] });
  });

  it.each([
    ["an unknown name", `chat("x", { tools: ["search"] });`, "invalid_field_value", "'search' is not a tool"],
    ["a runtime function", `chat("x", { tools: [tryTool] });`, "invalid_field_value", "'tryTool' is not a tool"],
    ["a repeated tool", `chat("x", { tools: [lookup, "lookup"] });`, "invalid_field_value", "lists 'lookup' twice"],
    ["an empty list", `chat("x", { tools: [] });`, "invalid_field_value", "needs at least one tool"],
    [
      "a computed list",
      `chat("x", { tools: this._last_user_reply });`,
      "non_literal_field",
      "must be an array literal",
    ],
    [
      "a computed entry",
      `chat("x", { tools: [this._last_user_reply] });`,
      "non_literal_field",
      "each of 'tools' is an imported tool",
    ],
    [
      "a node whose model is not asked",
      `chatExact("x", { tools: [lookup] });`,
      "invalid_field_value",
      "not at a chat_exact node",
    ],
  ])("refuses %s", (_, line, code, message) => {
    const { graph, diagnostics } = compiled(`    ${line}`);
    expect(graph).toBeNull();
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code, line: 5, message: expect.stringContaining(message) });
  });
});
