import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as runtime from "@autograms/runtime";
import { Agent, OfflineModel, type JsonValue } from "@autograms/runtime";
import { compileOk } from "./support/compile.js";

// The same methods, run two ways: as plain TypeScript (transpiled and executed here) and as the
// compiled graph (through the runtime's agent.call). Every control-flow construct, hoisted call
// and short-circuit must give the same value both ways.
const source = readFileSync(new URL("./semantics/agent.ts", import.meta.url), "utf8");
const graph = compileOk(source, "semantics/agent.ts");

function nativeAgent(): Record<string, (...args: unknown[]) => unknown> {
  const ts = createRequire(import.meta.url)("typescript") as typeof import("typescript");
  const js = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const module = { exports: {} as { default: new () => Record<string, (...args: unknown[]) => unknown> } };
  new Function("require", "module", "exports", js)(
    (id: string) => {
      if (id !== "@autograms/runtime") throw new Error(`unexpected import ${id}`);
      return runtime;
    },
    module,
    module.exports,
  );
  return new module.exports.default();
}

const cases: [string, JsonValue[]][] = [
  ["collatz", [6]],
  ["collatz", [27]],
  ["primes", [10]],
  ["grade", [95]],
  ["grade", [85]],
  ["grade", [75]],
  ["grade", [10]],
  ["fallthrough", ["a"]],
  ["fallthrough", ["b"]],
  ["fallthrough", ["c"]],
  ["fallthrough", ["z"]],
  ["countdown", [7]],
  ["countdown", [1]],
  ["keys", [{ a: 1, b: -2, c: 3 }]],
  [
    "pairs",
    [
      [
        ["ab", 2],
        ["skip me", 5],
        ["xyz", 3],
      ],
    ],
  ],
  ["classify", [-3]],
  ["classify", [0]],
  ["classify", [7]],
  ["classify", [4]],
  ["classify", [12]],
  ["fib", [10]],
  ["scaled", [1]],
  ["scaled", [6]],
  ["guarded", [[0, 3, 4, 10]]],
  ["loops", [9]],
  ["loops", [100]],
  ["strings", [["pear", "fig", "apple", "kiwi"]]],
  ["hoisted", [0]],
  ["hoisted", [5]],
  ["hoisted", [6]],
  ["hoisted", [8]],
  ["nested", [-7]],
  ["nested", [-1]],
  ["nested", [0]],
  ["nested", [4]],
  ["nested", [7]],
  ["nested", [11]],
  ["remember", [["a", "b"]]],
  ["logical", [0]],
  ["logical", [3]],
  ["logical", [4]],
  ["logical", [5]],
  ["logical", [6]],
  ["logical", [7]],
  ["cases", [0]],
  ["cases", [4]],
  ["cases", [5]],
  ["cases", [7]],
  ["cases", [11]],
  ["cases", [13]],
  ["defaults", [7]],
];

describe("compiled graphs compute what the TypeScript computes", () => {
  const native = nativeAgent();
  const agent = new Agent(graph, { model: new OfflineModel() });

  it.each(cases)("%s(%j)", async (name, args) => {
    const expected = native[name]!(...structuredClone(args));
    expect(await agent.call(name, structuredClone(args))).toEqual(expected);
  });
});
