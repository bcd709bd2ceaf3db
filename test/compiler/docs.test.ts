// The agent-language guide's examples compile to what its text says they do.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { compile } from "@autograms/compiler";

const guide = readFileSync(new URL("../../docs/language.md", import.meta.url), "utf8");

function example(section: string): string {
  const start = guide.indexOf(`\n## ${section}\n`);
  expect(start).toBeGreaterThan(-1);
  const block = /```ts\n([\s\S]*?)```/.exec(guide.slice(start))?.[1];
  expect(block).toBeDefined();
  return block!;
}

describe("docs/language.md", () => {
  it("Tools: the example lists its tools, writes tryTool's tool as its name and offers the tools at the node", () => {
    const { graph, diagnostics } = compile(example("Tools"), { fileName: "guide.ts" });
    expect(diagnostics).toEqual([]);
    expect(graph!.tools).toEqual({
      lookup: { module: "./tools.js", export: "lookup" },
      tryTool: { module: "@autograms/runtime", export: "tryTool" },
      calculator: { module: "./tools.js", export: "calculator" },
    });
    const instructions = graph!.nodes.map((n) => n.instruction);
    expect(instructions).toContain("const planet = lookup(_last_user_reply)");
    expect(instructions).toContain('const found = tryTool("lookup", "Vulcan")');
    expect(graph!.nodes.find((n) => n.action === "chat")).toMatchObject({
      instruction: "Answer the question.",
      tools: ["calculator", "lookup"],
    });
  });

  it("Tools: what the text says is refused is refused", () => {
    const header = `import { Autogram, chat, setPrompt, defineTool, tryTool } from "@autograms/runtime";\nimport { lookup } from "./tools.js";\n`;
    const codes = (body: string) =>
      compile(`${header}export default class A extends Autogram {\n  main() {\n    ${body}\n  }\n}\n`, {
        fileName: "a.ts",
      }).diagnostics.map((d) => d.code);
    expect(codes(`const t = defineTool({ name: "x" } as any);`)).toEqual(["unsupported_syntax"]);
    expect(codes(`const r = tryTool((x: string) => x, "a");`)).toEqual(["unsupported_syntax"]);
    expect(codes(`chat("a", { tools: [tryTool] });`)).toEqual(["invalid_field_value"]);
    expect(codes(`chat("a", { tools: [lookup, "lookup"] });`)).toEqual(["invalid_field_value"]);
    expect(codes(`chat("a", { tools: [] });`)).toEqual(["invalid_field_value"]);
    expect(codes(`setPrompt("a", { tools: [lookup] } as any);`)).toEqual(["invalid_field_value"]);
    expect(codes(`chat("a", { tools: lookup as any });`)).toEqual(["non_literal_field"]);
  });
});
