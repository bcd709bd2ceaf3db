import { describe, expect, it } from "vitest";
import { compile, formatDiagnostics } from "@autograms/compiler";
import { validateGraph } from "@autograms/runtime";

// What a custom action's results may change besides the node's output is declared in its
// defineAction (`effects`), which the compiler reads as text: the graph records it, and each
// variable `effects.assign` names must be one the node's scope can write and the agent can read.
// The original's node classes write memory as they like (autograms/nodes/prompt_nodes.py:60-140
// at commit 243158a: set_prompt / set_user_prompt on memory_object; base_node.py:912-935, the
// `new_user_reply` a node class returns); here each such effect is declared.
const actions = (effects: string, base = "") => `import { defineAction } from "@autograms/runtime";
export const persona = defineAction({ name: "persona"${base}, effects: ${effects}, instruction: () => ({}) });
`;
const agent = (body: string, members = "") => `import { Autogram, chat, exec_node } from "@autograms/runtime";
import { persona } from "./actions.js";
export default class Tutor extends Autogram {
${members}
  main() {
${body}
  }
}
`;
const build = (source: string, effects = `{ assign: ["level"] }`, base = "") =>
  compile(source, {
    fileName: "agent.ts",
    readFile: (p) => (p.endsWith("actions.ts") ? actions(effects, base) : undefined),
  });

describe("custom actions' declared effects, at compile time", () => {
  it("records the declaration in the graph; a class field or a let local it assigns is read after the node", () => {
    const { graph, diagnostics } = build(
      agent(
        `    exec_node({ action: persona, instruction: "fractions" });
    let topic = "";
    exec_node({ action: persona, instruction: "again" });
    chat(\`Teach \${topic} at level \${this.level}.\`);`,
        "  level = 0;",
      ),
      `{ setPrompt: true, consumeReply: true, assign: ["level", "topic", "level"] }`,
    );
    expect(diagnostics).toEqual([]);
    expect(graph!.actions!.persona).toEqual({
      module: "./actions.js",
      export: "persona",
      effects: { setPrompt: true, consumeReply: true, assign: ["level", "topic"] },
    });
    expect(validateGraph(graph).errors).toEqual([]);
    expect(graph!.nodes.find((n) => n.action === "chat")!.instruction).toBe("Teach $topic at level $level.");
  });

  it("refuses a name that is no variable of the node's scope, at the exec_node call", () => {
    const source = agent(`    exec_node({ action: persona, instruction: "fractions" });`);
    const { graph, diagnostics } = build(source);
    expect(graph).toBeNull();
    expect(diagnostics).toMatchObject([{ code: "effect_variable", line: 6, column: 5 }]);
    expect(formatDiagnostics(diagnostics, source)).toContain(
      "agent.ts:6:5 - error effect_variable: action 'persona' assigns 'level' (its effects.assign), which is not a variable of main(): declare it as a class field (level = ...) or a local of main() (let level = ...)",
    );
  });

  it("refuses a const local, and a class field in a @localFunction (which sees none)", () => {
    const constant = build(
      agent(`    const level = 1;\n    exec_node({ action: persona });\n    chat(\`\${level}\`);`),
    );
    expect(constant.diagnostics.map((d) => d.message)).toEqual([
      "action 'persona' assigns 'level' (its effects.assign), which is declared with const here: declare it with let",
    ]);
    const local = build(agent(`    this.teach();`, `  level = 0;\n  teach() { exec_node({ action: persona }); }`));
    expect(local.diagnostics).toMatchObject([
      {
        code: "effect_variable",
        line: 5,
        message:
          "action 'persona' assigns 'level' (its effects.assign), which is not a variable of 'teach': declare it in 'teach' (let level = ...): a @localFunction sees no class fields",
      },
    ]);
    // A parameter of the function is its variable.
    expect(
      build(agent(`    this.teach(1);`, `  teach(level: number) { exec_node({ action: persona }); }`)).diagnostics,
    ).toEqual([]);
  });

  it("warns that a @func's write of a class field is dropped when it returns, as for code", () => {
    const { graph, diagnostics } = build(
      agent(`    this.teach();`, `  level = 0;\n  @func teach() { exec_node({ action: persona }); }`).replace(
        "chat, exec_node",
        "chat, exec_node, func",
      ),
    );
    expect(graph).not.toBeNull();
    expect(diagnostics).toMatchObject([{ code: "global_write_dropped", severity: "warning", line: 5 }]);
  });

  it("refuses an effects declaration it cannot read or that declares what is not an effect", () => {
    const problem = (effects: string) =>
      build(agent(`    exec_node({ action: persona });`, "  level = 0;"), effects).diagnostics.map((d) => d.message);
    expect(problem(`{ assgn: ["level"] }`)).toEqual([
      "action 'persona' (defineAction in './actions.js'): effects.assgn is not an effect an action can declare: { setPrompt?, setUserPrompt?, consumeReply?, assign? }",
    ]);
    expect(problem(`{ assign: ["_last_state"] }`)).toEqual([
      "action 'persona' (defineAction in './actions.js'): effects.assign must be an array of variable names (not the automatic _last_ ones)",
    ]);
    expect(problem(`{ setPrompt: "yes" }`)).toEqual([
      "action 'persona' (defineAction in './actions.js'): effects.setPrompt must be true or false",
    ]);
    expect(problem(`EFFECTS`)[0]).toMatch(/'effects' must be a literal the compiler can read/);
  });
});

// The original's FunctionNode (autograms/nodes/function_nodes.py at commit 243158a) is the call
// itself: apply_instruction pushes the callee's scope (manage_call), apply_transition jumps to the
// callee's entry on the first visit, get_variable_output pops the return value on the second.
describe("a function kind as a custom action's base", () => {
  it("is refused with the reason and what to write instead", () => {
    for (const kind of ["function", "local_function", "global_function"]) {
      const { graph, diagnostics } = build(
        agent(`    exec_node({ action: persona });`, "  level = 0;"),
        "{}",
        `, base: "${kind}"`,
      );
      expect(graph).toBeNull();
      expect(diagnostics).toMatchObject([{ code: "invalid_action_definition", line: 6, column: 25 }]);
      expect(diagnostics[0]!.message).toBe(
        `action 'persona' (defineAction in './actions.js'): base '${kind}' cannot be inherited: a call node's behaviour is the call itself (arguments into a new scope, the callee's entry, the return into the caller), which no hook can replace or extend without breaking the scope rules; put a custom node right after the call, reading its value (its output hook transforms it, its transition hook chooses the way on)`,
      );
    }
  });
});
