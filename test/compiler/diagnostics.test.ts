import { describe, expect, it } from "vitest";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { compile, formatDiagnostics, DIAGNOSTICS } from "@autograms/compiler";
import { fixturesDir } from "./support/compile.js";

const header = `import { Autogram, chat, func, globalFunction } from "@autograms/runtime";\n`;

describe("the diagnostics catalogue", () => {
  it("has a fixture reporting each error code (all but internal_error, which no input should reach)", () => {
    const reported = new Set<string>();
    for (const dir of readdirSync(fixturesDir)) {
      const file = `${fixturesDir}/${dir}/expected.errors.txt`;
      if (!existsSync(file)) continue;
      for (const m of readFileSync(file, "utf8").matchAll(/ - (?:error|warning) ([a-z_]+):/g)) reported.add(m[1]!);
    }
    // The importer's csv_* codes: test/graph-formats/spreadsheet-import.test.ts reports each;
    // type_error needs files on disk: test/compiler/type-check.slow.ts reports it.
    const errors = Object.entries(DIAGNOSTICS)
      .filter(
        ([code, d]) =>
          d.severity === "error" && !["internal_error", "type_error"].includes(code) && !code.startsWith("csv_"),
      )
      .map(([code]) => code);
    expect(errors.filter((code) => !reported.has(code))).toEqual([]);
    expect([...reported].filter((code) => !(code in DIAGNOSTICS))).toEqual([]);
  });

  it("is the table in docs/language.md, code for code", () => {
    const doc = readFileSync(new URL("../../docs/language.md", import.meta.url), "utf8");
    const rows = [...doc.matchAll(/^\| `([a-z_]+)` \| (error|warning) \| (.*) \|$/gm)].map((m) => [
      m[1],
      m[2],
      m[3]!.replace(/\\\|/g, "|"),
    ]);
    expect(rows).toEqual(Object.entries(DIAGNOSTICS).map(([code, d]) => [code, d.severity, d.summary]));
  });

  it("reports every problem, not only the first, in source order", () => {
    const { diagnostics } = compile(
      `${header}
export default class A extends Autogram {
  main() {
    this.nope();
    chat("x", { name: "next" });
    this.other(1, 2, 3);
  }
  other(a: number) {}
}`,
      { fileName: "a.ts" },
    );
    expect(diagnostics.map((d) => `${d.line}:${d.code}`)).toEqual([
      "5:unknown_method",
      "6:invalid_node_name",
      "7:argument_count",
    ]);
  });

  it("warns, and still compiles, when a @func writes a field (the write is dropped on return)", () => {
    const source = `${header}
export default class A extends Autogram {
  count = 0;
  main() { this.bump(); }
  @func bump() { this.count += 1; }
}`;
    const { graph, diagnostics } = compile(source, { fileName: "a.ts" });
    expect(graph).not.toBeNull();
    expect(diagnostics).toMatchObject([{ code: "global_write_dropped", severity: "warning", line: 6, column: 18 }]);
    expect(formatDiagnostics(diagnostics, source)).toContain("a.ts:6:18 - warning global_write_dropped:");
  });

  it("warns about strict comparisons with undefined, which JSON memory never holds", () => {
    const source = `${header}
export default class A extends Autogram {
  main() {
    let x: string | undefined;
    if (x === undefined) chat("a");
    if (typeof x !== "undefined" || x == undefined) chat("b");
  }
}`;
    const { graph, diagnostics } = compile(source, { fileName: "a.ts" });
    expect(graph!.nodes.find((n) => n.instruction === "let x = null")).toBeDefined();
    expect(diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`)).toEqual([
      "6:9 undefined_comparison",
      "7:9 undefined_comparison",
    ]);
  });

  it("warns once at the start of dead code, on its first line, and still compiles", () => {
    const source = `${header}
export default class A extends Autogram {
  main() {
    chat("a", { name: "a", transitions: ["quit"] });
    while (this._last_user_reply !== "") {
      chat("b");
    }
    chat("c", { name: "c" });
  }
}`;
    const { graph, diagnostics } = compile(source, { fileName: "a.ts" });
    expect(graph).not.toBeNull();
    // "c" has a name, but nothing transitions to it and no $var transition could.
    expect(diagnostics).toMatchObject([
      { code: "unreachable_code", severity: "warning", line: 6, column: 5, endLine: 6, endColumn: 43 },
    ]);
  });

  it("does not warn where a transition by name, a $var transition or an interjection leads in", () => {
    compileClean(`${header}
export default class A extends Autogram {
  next_step = "c";
  main() {
    chat("a", { transitions: ["b"] });
    chat("b", { name: "b", transitions: ["$next_step"] });
    chat("c", { name: "c", transitions: ["quit"] });
    chat("help", { condition_interjection: "The user asks for help." });
    chat("after help");
  }
}`);
  });

  it("gives each diagnostic the file, a 1-based start and an end", () => {
    const { diagnostics } = compile(
      `${header}export default class A extends Autogram {\n  main() {\n    chat(\`\${this.missing}\`);\n  }\n}\n`,
      { fileName: "dir/a.ts" },
    );
    expect(diagnostics).toEqual([
      {
        code: "unknown_member",
        severity: "error",
        message: "the agent class has no field or method 'missing'",
        file: "dir/a.ts",
        line: 4,
        column: 18,
        endLine: 4,
        endColumn: 25,
      },
    ]);
  });

  it("suggests the closest method or field for a misspelt name", () => {
    const { diagnostics } = compile(
      `${header}
export default class A extends Autogram {
  orderId = "";
  main() {
    this.locateOrdr();
    chat(\`\${this.orderID}\`);
    this.mian();
    this.zzz();
  }
  locateOrder() {}
}`,
      { fileName: "a.ts" },
    );
    expect(diagnostics.map((d) => d.message)).toEqual([
      "the agent class has no method 'locateOrdr'; did you mean 'locateOrder'?",
      "the agent class has no field or method 'orderID'; did you mean 'orderId'?",
      // main() cannot be called, so it is never suggested.
      "the agent class has no method 'mian'",
      "the agent class has no method 'zzz'",
    ]);
  });

  it("refuses await with what to write instead: the call alone, or tryTool", () => {
    const { diagnostics } = compile(
      `${header}import { lookupOrder } from "./tools.js";
export default class A extends Autogram {
  main() {
    const order = await lookupOrder({ id: "A-1" });
    chat(\`\${order}\`);
  }
}`,
      { fileName: "a.ts" },
    );
    expect(diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`)).toEqual(["5:19 unsupported_syntax"]);
    expect(diagnostics[0]!.message).toMatch(/^'await' in agent code: the agent awaits every tool call itself/);
    expect(diagnostics[0]!.message).toContain("without await");
    expect(diagnostics[0]!.message).toContain("tryTool(lookupOrder, { id })");
  });

  it("reports a missing '}' once, where its block opens, not as the errors it makes below", () => {
    const source = `${header}
export default class A extends Autogram {
  topic = "x";
  main() {
    chat("a");
    if (this.topic === "x") {
      chat("b");
    for (const x of [1, 2]) {
      chat(\`\${x} \${this.topic}\`);
    }
    this.share();
  }

  @globalFunction share() {
    this.topic = "y";
  }

  @func other(a: string) {
    chat(\`\${a}\`);
  }
}
`;
    const { diagnostics } = compile(source, { fileName: "a.ts" });
    expect(diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`)).toEqual(["7:29 syntax_error"]);
    expect(diagnostics[0]!.message).toMatch(/^this '\{' is never closed/);
    // Two mistakes with balanced braces: the first, as TypeScript words it.
    const other = compile(
      `${header}export default class A extends Autogram {\n  main() {\n    chat("a"\n    if (x > ) {}\n  }\n}\n`,
      {
        fileName: "a.ts",
      },
    ).diagnostics;
    expect(other.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`)).toEqual([
      "5:5 syntax_error ',' expected.",
    ]);
  });

  it("reports the uses of this in a local function once (a @localFunction meant as @globalFunction)", () => {
    const { diagnostics } = compile(
      `${header}import { localFunction } from "@autograms/runtime";
export default class A extends Autogram {
  topic = "x";
  count = 0;
  main() { this.share(); }
  @localFunction share() {
    const topic = this.topic;
    this.topic = \`\${topic}!\`;
    this.count += 1;
    chat(\`\${this.topic} \${this.count}\`);
  }
}`,
      { fileName: "a.ts" },
    );
    expect(diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`)).toEqual(["8:19 this_in_local_function"]);
    expect(diagnostics[0]!.message).toContain("'this.topic' in local function 'share' (and 4 more uses of this)");
  });

  it("formats tsc-style with a code frame that marks the range", () => {
    const source = `${header}export default class A extends Autogram {\n  main() {\n    this.greet();\n  }\n}\n`;
    const text = formatDiagnostics(compile(source, { fileName: "agent.ts" }).diagnostics, source);
    expect(text).toBe(
      [
        "agent.ts:4:10 - error unknown_method: the agent class has no method 'greet'",
        "  3 |   main() {",
        "> 4 |     this.greet();",
        "    |          ^^^^^",
        "  5 |   }",
        "",
      ].join("\n"),
    );
  });

  it("accepts what the agent language allows without a word", () => {
    compileClean(`${header}
export default class A extends Autogram {
  topic = "x";
  main() { this.share(); }
  @globalFunction share() { this.topic = "y"; chat(\`\${this.topic} \${this._last_user_reply}\`); }
}`);
  });
});

function compileClean(source: string): void {
  expect(compile(source, { fileName: "a.ts" }).diagnostics).toEqual([]);
}
