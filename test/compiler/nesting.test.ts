// Deeply nested code is refused with a located diagnostic, whichever construct nests and
// whichever phase would have recursed through it; compile() never throws nor fails internally.
import { describe, expect, it } from "vitest";
import { compile } from "@autograms/compiler";
import { Agent, ScriptedModel } from "@autograms/runtime";

const wrap = (body: string, fields = "") =>
  `import { Autogram, chat } from "@autograms/runtime";\nexport default class A extends Autogram {\n${fields}  main() {\n    let y = 0;\n${body}\n    chat(\`\${y}\`);\n  }\n}\n`;

const repeat = (text: string, n: number) => text.repeat(n);

/** Each construct, nested n deep. */
const NESTED: Record<string, (n: number) => string> = {
  parentheses: (n) => `    y = ${repeat("(", n)}1${repeat(")", n)};`,
  ifs: (n) => `${repeat("    if (y < 5) {\n", n)}    y = 1;\n${repeat("    }\n", n)}`,
  "ifs with agent calls": (n) => `${repeat("    if (y < 5) {\n", n)}    chat("deep");\n${repeat("    }\n", n)}`,
  whiles: (n) => `${repeat("    while (y < 5) {\n", n)}    y = 6;\n${repeat("    }\n", n)}`,
  blocks: (n) => `${repeat("    {\n", n)}    y = 1;\n${repeat("    }\n", n)}`,
  arrays: (n) => `    const z = ${repeat("[", n)}1${repeat("]", n)};`,
  objects: (n) => `    const z = ${repeat("{ a: ", n)}1${repeat(" }", n)};`,
  "binary operators": (n) => `    y = ${Array.from({ length: n }, () => "1").join(" + ")};`,
  "method chains": (n) => `    const z = "a"${repeat(".trim()", n)};`,
  ternaries: (n) => `    y = ${repeat("y > 1 ? 1 : ", n)}0;`,
  arrows: (n) => `    const z = [1].map(${repeat("(a) => ", n)}1);`,
  "template literals": (n) => `    chat(\`${repeat("${`", n)}x${repeat("`}", n)}\`);`,
  "calls in arguments": (n) => `    y = ${repeat("Math.abs(", n)}1${repeat(")", n)};`,
};

describe("deep nesting", () => {
  for (const [what, make] of Object.entries(NESTED)) {
    for (const depth of [750, 1000, 5000]) {
      it(`${what}, ${depth} deep: nesting_too_deep at a line of the method, no internal error`, () => {
        const source = wrap(make(depth));
        const { graph, diagnostics } = compile(source, { fileName: "deep.ts" });
        expect(graph).toBeNull();
        expect(diagnostics.map((d) => d.code)).toEqual(["nesting_too_deep"]);
        const [d] = diagnostics;
        expect(d!.file).toBe("deep.ts");
        expect(d!.line).toBeGreaterThanOrEqual(4);
        expect(d!.line).toBeLessThanOrEqual(source.split("\n").length);
        expect(d!.message).toMatch(/nests (more than 400 levels deep|too deeply)/);
      });
    }
  }

  it("a field's initial value nested 1,000 deep", () => {
    const { diagnostics } = compile(wrap("", `  x = ${repeat("[", 1000)}1${repeat("]", 1000)};\n`), {
      fileName: "deep.ts",
    });
    expect(diagnostics.map((d) => `${d.line}:${d.code}`)).toEqual(["3:nesting_too_deep"]);
  });

  it("an else-if chain is flat: 1,000 branches compile and run to the last one", async () => {
    const n = 1000;
    const chain = `    y = ${n};\n    if (y === 0) { y = -1; }\n${Array.from({ length: n }, (_, i) => `    else if (y === ${i + 1}) { y = ${i + 1} * 2; }\n`).join("")}`;
    const { graph, diagnostics } = compile(wrap(chain), { fileName: "chain.ts" });
    expect(diagnostics).toEqual([]);
    const agent = new Agent(graph!, {
      model: new ScriptedModel({ complete: [(req) => req.messages.at(-1)!.content] }),
    });
    const { reply } = await agent.reply("hi");
    expect(reply).toContain(String(n * 2));
  });

  it("an else-if chain of 4,000 branches is a located diagnostic, not an internal error", () => {
    const chain = `    if (y === 0) { y = 1; }\n${Array.from({ length: 4000 }, (_, i) => `    else if (y === ${i + 1}) { y = ${i}; }\n`).join("")}`;
    const { graph, diagnostics } = compile(wrap(chain), { fileName: "chain.ts" });
    if (graph === null) {
      expect(diagnostics.map((d) => d.code)).toEqual(["nesting_too_deep"]);
      expect(diagnostics[0]!.line).toBeGreaterThanOrEqual(4);
    } else {
      expect(diagnostics).toEqual([]);
    }
  });

  it("just under the limit compiles: 190 nested ifs (each an if and a block: 380 levels)", () => {
    const { graph, diagnostics } = compile(wrap(NESTED["ifs with agent calls"]!(190)), { fileName: "ok.ts" });
    expect(diagnostics).toEqual([]);
    expect(graph).not.toBeNull();
  });
});
