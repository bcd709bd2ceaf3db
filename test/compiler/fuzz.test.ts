import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { readdirSync } from "node:fs";
import { compile, type Diagnostic } from "@autograms/compiler";
import { validateGraph } from "@autograms/runtime";
import { fixtureSource, fixturesDir } from "./support/compile.js";

// compile() must never throw, whatever it is given: a damaged agent gets diagnostics (each with
// a position inside the file), an undamaged-enough one a valid graph. An internal_error is a
// compiler crash caught at the last moment, so it fails the test too.
const sources = readdirSync(fixturesDir).sort().map(fixtureSource);

const fragments = [
  "{",
  "}",
  "(",
  ")",
  "[",
  "]",
  ";",
  ",",
  '"',
  "'",
  "`",
  "${",
  "\n",
  " ",
  "=",
  "+=",
  "&&",
  "?",
  ":",
  "=>",
  "this.",
  "this",
  "chat(",
  'thought("x")',
  "exec_node({",
  'action: "chat"',
  'transitions: ["nowhere"]',
  "if (x) ",
  "else ",
  "while (true) ",
  "for (const a of b) ",
  "switch (x) { case 1: ",
  "break;",
  "continue;",
  "return ",
  "return;",
  "@func ",
  "@localFunction ",
  "const ",
  "let x = ",
  "x",
  "main() {",
  "class ",
  "export ",
  'import { chat } from "@autograms/runtime";',
  "async ",
  "try {",
  "function f() {}",
  "/*",
  "*/",
  "//",
  "\\",
  "\u2028",
  "\uD800",
  "0x",
  "1e999",
  "as any",
  "!",
  "satisfies T",
];

type Damage = { at: number; remove: number; insert: string };

const damage = fc.record({
  at: fc.nat(),
  remove: fc.nat({ max: 40 }),
  insert: fc.oneof(fc.constantFrom(...fragments), fc.string({ maxLength: 8 }), fc.constant("")),
});

function apply(source: string, damages: Damage[]): string {
  let text = source;
  for (const { at, remove, insert } of damages) {
    const i = at % (text.length + 1);
    text = text.slice(0, i) + insert + text.slice(i + remove);
  }
  return text;
}

function checkResult(text: string): void {
  const result = compile(text, { fileName: "fuzz.ts" });
  const crash = result.diagnostics.find((d) => d.code === "internal_error");
  expect(crash, `internal error for input:\n${text}`).toBeUndefined();
  const lines = text.split(/\r\n|\r|\n|\u2028|\u2029/).length;
  for (const d of result.diagnostics) checkPosition(d, lines);
  if (result.graph === null) {
    expect(result.diagnostics.some((d) => d.severity === "error")).toBe(true);
    expect(result.sourceMap).toBeNull();
  } else {
    expect(validateGraph(result.graph).errors).toEqual([]);
    expect(result.sourceMap?.version).toBe(3);
  }
}

function checkPosition(d: Diagnostic, lines: number): void {
  expect(d.line).toBeGreaterThanOrEqual(1);
  expect(d.column).toBeGreaterThanOrEqual(1);
  expect(d.line).toBeLessThanOrEqual(lines);
  expect(d.endLine * 1e6 + d.endColumn).toBeGreaterThanOrEqual(d.line * 1e6 + d.column);
  expect(d.message.length).toBeGreaterThan(0);
}

describe("compile never throws", () => {
  it("on agents damaged at random", () => {
    fc.assert(
      fc.property(
        fc.nat({ max: sources.length - 1 }),
        fc.array(damage, { minLength: 1, maxLength: 4 }),
        (index, damages) => {
          checkResult(apply(sources[index]!, damages));
        },
      ),
      { numRuns: 600 },
    );
  });

  it("on arbitrary text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (text) => checkResult(text)),
      { numRuns: 200 },
    );
  });

  it("on values that are not text at all", () => {
    for (const value of [undefined, null, 42, {}, []]) {
      const result = compile(value as unknown as string, { fileName: "x.ts" });
      expect(result.graph).toBeNull();
      expect(result.diagnostics.length).toBeGreaterThan(0);
    }
    expect(() => compile("", undefined as unknown as { fileName: string })).not.toThrow();
  });
});
