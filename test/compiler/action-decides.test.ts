import { describe, expect, it } from "vitest";
import { compile } from "@autograms/compiler";

// An action with a transition hook picks among a node's transitions itself (the original's
// apply_transition overridden by a node class): its nodes need no question for the model.
const actions = (hook: string) => `import { defineAction } from "@autograms/runtime";
export const route = defineAction({ name: "route", base: "chat_exact"${hook} });
`;
const agent = `import { Autogram, chatExact, exec_node } from "@autograms/runtime";
import { route } from "./actions.js";
export default class Cafe extends Autogram {
  main() {
    exec_node({ action: route, name: "ask", instruction: "Tea or coffee?", transitions: ["tea", "coffee"] });
    chatExact("Tea it is.", { name: "tea", transitions: ["quit"] });
    chatExact("Coffee it is.", { name: "coffee", transitions: ["quit"] });
  }
}
`;
const build = (hook: string) =>
  compile(agent, { fileName: "agent.ts", readFile: (p) => (p.endsWith("actions.ts") ? actions(hook) : undefined) });

describe("custom actions that decide their transition", () => {
  it("compile without transition_question and transition_choices, and the graph records that the action decides", () => {
    for (const hook of [
      ", transition(ctx) { return ctx.node.transitions[0]; }",
      ", transition: (ctx) => ctx.node.transitions[0]",
    ]) {
      const { graph, diagnostics } = build(hook);
      expect(diagnostics).toEqual([]);
      expect(graph!.actions).toEqual({
        route: { module: "./actions.js", export: "route", base: "chat_exact", decides: true },
      });
    }
  });

  it("without a transition hook, several transitions still need the model's question", () => {
    const { graph, diagnostics } = build("");
    expect(graph).toBeNull();
    expect(diagnostics.map((d) => d.code)).toEqual(["transition_choices_mismatch", "transition_choices_mismatch"]);
  });
});
