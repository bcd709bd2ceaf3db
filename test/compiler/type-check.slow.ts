import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { compile, formatDiagnostics } from "@autograms/compiler";
import { autogramsInProcess } from "../cli/support/run-cli.js";

/**
 * The type check runs TypeScript's checker on the agent file as an editor would: the folders are
 * made inside the repository, where `@autograms/runtime` resolves to the built package's
 * declarations, as it does in a project that installed it.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));

const TOOLS = `import { defineTool } from "@autograms/runtime";
export const lookupOrder = defineTool({
  name: "lookupOrder",
  description: "An order by its id.",
  parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  async run(args: { id: string }): Promise<{ id: string; total: number }> {
    return { id: args.id, total: 3 };
  },
});
`;

const agent = (body: string) => `import { Autogram, chatExact, thought, tryTool } from "@autograms/runtime";
import { lookupOrder } from "./tools.js";

export default class Shop extends Autogram {
  main() {
${body}
  }
}
`;

let dir: string;
beforeAll(() => {
  const cache = join(root, "node_modules/.cache/autograms-tests");
  mkdirSync(cache, { recursive: true });
  dir = mkdtempSync(join(cache, "type-check-"));
  writeFileSync(join(dir, "tools.ts"), TOOLS);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function check(source: string, name = "agent.ts") {
  const path = join(dir, name);
  writeFileSync(path, source);
  return compile(source, { fileName: name, typeCheckPath: path });
}

describe("type-checking the agent file", () => {
  it("reports a tool called with a string where its schema says an object, tsc-style at the call", () => {
    const source = agent(`    const order = lookupOrder("A-1");\n    chatExact(\`\${order.total}\`);`);
    const { graph, diagnostics } = check(source);
    expect(graph).toBeNull();
    expect(diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([["type_error", 6, 31]]);
    expect(formatDiagnostics(diagnostics, source).split("\n")[0]).toBe(
      "agent.ts:6:31 - error type_error: Argument of type 'string' is not assignable to parameter of type '{ id: string; }'. (TS2345)",
    );
    // The same text without the check compiles: the compiler alone does not read types.
    expect(compile(source, { fileName: "agent.ts" }).graph).not.toBeNull();
  });

  it("types an async tool's call and tryTool's value as agent code sees them: resolved", () => {
    const source = agent(`    const order = lookupOrder({ id: "A-1" });
    const total: number = order.total;
    const found = tryTool(lookupOrder, { id: "A-2" });
    const other: number = found.ok ? found.value.total : 0;
    const summary = thought<{ sum: number }>("Sum it up.", { schema: { type: "object" } });
    chatExact(\`\${total + other + summary.sum}\`);`);
    const { graph, diagnostics } = check(source);
    expect(diagnostics).toEqual([]);
    expect(graph).not.toBeNull();
  });

  it("reports a misuse of thought<T>'s value at its place", () => {
    const source = agent(`    const summary = thought<{ sum: number }>("Sum it up.", { schema: { type: "object" } });
    const total: number = summary.total;
    chatExact(\`\${total}\`);`);
    const { diagnostics } = check(source);
    expect(diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`)).toEqual(["7:35 type_error"]);
    expect(diagnostics[0]!.message).toContain("Property 'total' does not exist on type '{ sum: number; }'. (TS2339)");
  });

  it("uses the nearest tsconfig.json, and names it when TypeScript cannot read it", () => {
    const sub = join(dir, "strict-off");
    mkdirSync(sub);
    writeFileSync(join(sub, "tools.ts"), TOOLS);
    // Without strict, a parameter without a type is no error; with the defaults (strict) it is.
    const loose = agent(`    this.f(1);`).replace("  main() {", "  f(x) { chatExact(`${x}`); }\n  main() {");
    expect(check(loose, "loose.ts").diagnostics.map((d) => d.message)).toEqual([
      expect.stringContaining("implicitly has an 'any' type"),
    ]);
    writeFileSync(join(sub, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: false } }));
    expect(check(loose, "strict-off/loose.ts").diagnostics).toEqual([]);
    writeFileSync(join(sub, "tsconfig.json"), `{ "compilerOptions": { "strict": fals } }`);
    const broken = check(loose, "strict-off/loose.ts").diagnostics;
    expect(broken[0]!.message).toMatch(/^the project's tsconfig\.json: .*strict-off\/tsconfig\.json: .*\(TS\d+\)$/);
  });

  it("keeps an agent found clean, and checks it again when a file it reads changes", () => {
    const sub = join(dir, "kept");
    mkdirSync(sub);
    writeFileSync(join(sub, "tools.ts"), TOOLS);
    const source = agent(`    const order = lookupOrder({ id: "A-1" });\n    chatExact(\`\${order.total}\`);`);
    const saved = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = join(dir, "cache");
    try {
      expect(check(source, "kept/agent.ts").diagnostics).toEqual([]);
      expect(readdirSync(join(dir, "cache/autograms")).filter((f) => f.startsWith("typecheck-"))).toHaveLength(1);
      // The tool now takes a number: the agent's call, unchanged, no longer fits.
      writeFileSync(join(sub, "tools.ts"), TOOLS.replaceAll("id: string", "id: number"));
      expect(check(source, "kept/agent.ts").diagnostics.map((d) => `${d.line}:${d.code}`)).toEqual(["6:type_error"]);
    } finally {
      if (saved === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = saved;
    }
  });

  it("checks an agent only once it compiles: a compiler error is not reported again by TypeScript", () => {
    const { diagnostics } = check(agent(`    this.nope(lookupOrder("x"));`));
    expect(diagnostics.map((d) => d.code)).toEqual(["unknown_method"]);
  });
});

describe("autograms compile, chat: the type check and --no-typecheck", () => {
  beforeAll(() => {
    const buildError = inject("cliBuildError");
    if (buildError) throw new Error(buildError);
  });

  it("fails on a type error with its tsc-style line; --no-typecheck compiles it", async () => {
    writeFileSync(
      join(dir, "typed.ts"),
      agent(`    const order = lookupOrder("A-1");\n    chatExact(\`\${order.total}\`);`),
    );
    const failed = await autogramsInProcess(["compile", "typed.ts", "-o", "-"], { cwd: dir });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(
      /^typed\.ts:6:31 - error type_error: Argument of type 'string' is not assignable to parameter of type '\{ id: string; \}'\. \(TS2345\)\n/,
    );
    expect(failed.stderr).toMatch(/autograms compile: 1 error in typed\.ts\n$/);
    const skipped = await autogramsInProcess(["compile", "typed.ts", "-o", "-", "--no-typecheck"], { cwd: dir });
    expect(skipped.stderr).toBe("");
    expect(skipped.code).toBe(0);
    const chat = await autogramsInProcess(["chat", "typed.ts", "--offline"], { cwd: dir, input: "" });
    expect(chat.code).toBe(1);
    expect(chat.stderr).toContain("typed.ts:6:31 - error type_error:");
  });
});
