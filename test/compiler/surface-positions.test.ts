import { describe, expect, it } from "vitest";
import { compile } from "@autograms/compiler";
import { Agent, type ChatModel } from "@autograms/runtime";

/**
 * What compiles, runs: every place agent code can be written is checked against the evaluator's
 * one surface table (SANDBOX_SURFACE), so a name the evaluator does not offer is refused when
 * compiling, never found missing when a conversation reaches the node. One agent is generated
 * per (position x refused use); each must be refused on the line where the use is written.
 * The original runs conditions and code in one interpreter (a boolean_condition through
 * statement_interpreter.execute_expression, autograms/autogram_utils.py:403 at commit 243158a),
 * so one surface holds for every position.
 */

const ACTIONS = `import { defineAction } from "@autograms/runtime";
export const confirm = defineAction({ name: "confirm", fields: { question: { type: "string" } } });
`;

/** Where code can stand: `E` is replaced by the expression (TypeScript, with `this.q`). */
const POSITIONS: Record<string, string> = {
  "if condition": `main() {\n    if (E != null) { chat("a"); }\n  }`,
  "while condition": `main() {\n    while (E == null) { chat("a"); }\n  }`,
  "switch discriminant": `main() {\n    switch (E) { case 1: chat("a"); }\n  }`,
  "for...of iterable": `main() {\n    for (const x of [E]) { chat(\`\${x}\`); }\n  }`,
  "${} placeholder": `main() {\n    chat(\`x \${E}\`);\n  }`,
  "code statement": `main() {\n    const v = E;\n    chat(\`\${v}\`);\n  }`,
  "call argument": `main() {\n    this.f(E);\n  }\n  f(x: unknown) { chat("a"); }`,
  "return value": `main() {\n    this.f();\n  }\n  @func f() { return E; }`,
  "transition target": `main() {\n    this.f();\n  }\n  @func f() { exec_node({ action: "transition", transitions: ["return " + S] }); }`,
  boolean_condition: `main() {\n    exec_node({ action: "transition", name: "go", transitions: ["pick.*"] });\n    exec_node({ action: "chat", name: "pick.a", instruction: "a", boolean_condition: S });\n    exec_node({ action: "chat", name: "pick.b", instruction: "b" });\n  }`,
  "custom-action field": `main() {\n    exec_node({ action: confirm, question: \`x \${E}\` });\n  }`,
};

/** A use of what the evaluator lacks, and what its diagnostic names. */
const REFUSED: Record<string, { code: string; named: string }> = {
  "a method no value has": { code: "this.q.match('^y')", named: "'.match()'" },
  "a global it leaves out": { code: "escape(this.q)", named: "'escape'" },
  "a function that exists nowhere": { code: "frobnicate(this.q)", named: "'frobnicate()'" },
  "a namespace member it lacks": { code: "Math.clamp(1, 2, 3)", named: "Math.clamp" },
  "a browser function": { code: "btoa(this.q)", named: "'btoa()'" },
};

/** The agent with `expression` at the position; strings (S) hold it as evaluator code (`q`). */
function agentSource(position: string, expression: string): string {
  const body = POSITIONS[position]!.replace("E", expression).replace(
    "S",
    JSON.stringify(expression.replaceAll("this.", "")),
  );
  return `import { Autogram, chat, exec_node, func } from "@autograms/runtime";
import { confirm } from "./actions.js";

export default class Generated extends Autogram {
  q = "yes";

  ${body}
}
`;
}

function compileAgent(source: string) {
  return compile(source, {
    fileName: "agent.ts",
    readFile: (path) => (path.endsWith("actions.ts") ? ACTIONS : undefined),
  });
}

const lineOf = (source: string, text: string) => source.split("\n").findIndex((l) => l.includes(text)) + 1;

describe("every code position is checked against the evaluator's surface", () => {
  const cases = Object.keys(POSITIONS).flatMap((position) =>
    Object.entries(REFUSED).map(([what, use]) => ({ position, what, ...use })),
  );

  it.each(cases)("$position: $what is refused on its line", ({ position, code, named }) => {
    const source = agentSource(position, code);
    const { graph, diagnostics } = compileAgent(source);
    expect(graph).toBeNull();
    // A string field's code the evaluator cannot even compile is an invalid value of that field.
    const refusal = diagnostics.find(
      (d) => ["unsupported_syntax", "invalid_field_value"].includes(d.code) && d.message.includes(named),
    );
    expect(refusal, diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`).join("\n")).toBeDefined();
    const written = lineOf(source, code.replaceAll("this.", "").slice(0, 8)) || lineOf(source, code.slice(0, 8));
    expect(refusal!.line).toBe(written);
  });

  it("a string field's refused code is reported at its column, not at its node", () => {
    const source = `import { Autogram, chat, exec_node, func } from "@autograms/runtime";

export default class Yes extends Autogram {
  main() {
    chat("Shall we go on?");
    this.decide();
    exec_node({
      action: "transition", transitions: ["next"], boolean_condition: "_last_user_reply.match('^y') != null",
    });
  }
  @func decide() {
    exec_node({ action: "transition", transitions: ["return 'x'.match('x')"] });
  }
}
`;
    const { diagnostics } = compileAgent(source);
    const at = (line: number, text: string) => ({ line, column: source.split("\n")[line - 1]!.indexOf(text) + 1 });
    expect(diagnostics.map((d) => ({ line: d.line, column: d.column, endColumn: d.endColumn }))).toEqual([
      { ...at(8, "_last_user_reply.match"), endColumn: at(8, "_last_user_reply.match").column + 22 },
      // A return expression's string: at the transition (the code there follows "return ").
      { ...at(12, '"return'), endColumn: at(12, '"return').column + 23 },
    ]);
    expect(diagnostics[0]!.message).toContain("'.match()' is not available");
  });

  it.each(Object.keys(POSITIONS))("%s: the URI functions the evaluator offers compile", (position) => {
    const { graph, diagnostics } = compileAgent(agentSource(position, "encodeURIComponent(this.q)"));
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(graph).not.toBeNull();
  });

  it("an offered function runs where it compiled", async () => {
    const source = `import { Autogram, chatExact } from "@autograms/runtime";
export default class Search extends Autogram {
  q = "a&b c";
  main() {
    chatExact(\`https://x.org/?q=\${encodeURIComponent(this.q)} \${decodeURI(encodeURI("/a b"))}\`);
  }
}
`;
    const { graph } = compileAgent(source);
    const model: ChatModel = { complete: async () => "", choose: async () => 0 };
    const { reply } = await new Agent(graph!, { model }).reply("");
    expect(reply).toBe("https://x.org/?q=a%26b%20c /a b");
  });
});
