// Text cut to a budget never splits a character: no lone surrogate reaches a model, whatever the
// budget and wherever the astral characters (emoji, rare CJK) fall.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Agent, type ChatMessage, type GraphNode } from "@autograms/runtime";
import { clip, keepEnd } from "../../runtime/src/text/cut.js";
import { TestModel, graph, n } from "./helpers.js";

const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const whole = (text: string) => !LONE.test(text);

// Strings mixing ASCII and astral characters, so cuts often fall between a pair's halves.
const text = fc
  .array(fc.oneof(fc.constantFrom("a", " ", "é", "😀", "𝔸", "👍🏽", "\n")), { maxLength: 60 })
  .map((parts) => parts.join(""));

describe("cutting text to a budget", () => {
  it("keepEnd and clip cut on whole characters, within the budget, as close to it as they can", () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 70 }), (s, budget) => {
        const end = keepEnd(s, budget, (t) => t.length);
        expect(whole(end) && s.endsWith(end) && end.length <= budget).toBe(true);
        expect(end.length).toBeGreaterThanOrEqual(Math.min(s.length, budget) - 1);
        const start = clip(s, Math.max(budget, 3));
        expect(whole(start) && start.length <= Math.max(budget, 3)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  const emoji = "😀".repeat(40);
  const sent = (model: TestModel) => [
    ...model.completions.flatMap((c) => c.messages.map((m: ChatMessage) => m.content)),
    ...model.choices.map((c) => c.prompt),
  ];

  it("chat and thought prompts: every budget gives whole characters", async () => {
    const nodes: GraphNode[] = [
      n({ name: "p", action: "set_prompt", instruction: `Prompt ${emoji}`, transitions: ["a"] }),
      n({ name: "a", action: "chat", instruction: `Say ${emoji}`, transitions: ["t"] }),
      n({ name: "t", action: "thought", instruction: `Think ${emoji}`, transitions: ["a"] }),
    ];
    for (let budget = 1; budget <= 120; budget += 7) {
      const model = new TestModel(() => `${emoji}!`);
      const agent = new Agent(graph(nodes), {
        model,
        config: { maxInputTokens: budget, countTokens: (t) => t.length },
      });
      let memory = (await agent.reply(`hi ${emoji}`)).memory;
      memory = (await agent.reply(`again ${emoji}`, memory)).memory;
      expect(sent(model).length).toBeGreaterThan(0);
      for (const content of sent(model)) expect({ budget, whole: whole(content) }).toEqual({ budget, whole: true });
    }
  });

  it("multiple-choice questions: every budget gives whole characters", async () => {
    const nodes: GraphNode[] = [
      n({
        name: "a",
        action: "chat_exact",
        instruction: `Ready? ${emoji}`,
        transitions: ["a", "b"],
        transition_question: `Is the user ready? ${emoji}`,
        transition_choices: ["yes", "no"],
      }),
      n({ name: "b", action: "chat_exact", instruction: "Go.", transitions: ["a"] }),
    ];
    for (let budget = 1; budget <= 120; budget += 5) {
      const model = new TestModel(undefined, () => 0);
      const agent = new Agent(graph(nodes), {
        model,
        config: { maxClassifierInputTokens: budget, countTokens: (t) => t.length },
      });
      await agent.reply(`yes ${emoji}`, (await agent.reply("")).memory);
      expect(model.choices.length).toBe(1);
      for (const content of sent(model)) expect({ budget, whole: whole(content) }).toEqual({ budget, whole: true });
    }
  });

  it("a simulated user's prompt: every budget gives whole characters", async () => {
    const nodes: GraphNode[] = [
      n({
        name: "a",
        action: "chat_exact",
        instruction: `Tell me ${emoji}`,
        transitions: ["a"],
        user_instruction_transitions: [`Answer ${emoji}`],
      }),
    ];
    for (let budget = 1; budget <= 120; budget += 9) {
      const model = new TestModel(() => `fine ${emoji}`);
      const agent = new Agent(graph(nodes), {
        model,
        config: { maxInputTokens: budget, countTokens: (t) => t.length },
      });
      const { memory } = await agent.reply("");
      await agent.simulateUser(memory);
      for (const content of sent(model)) expect({ budget, whole: whole(content) }).toEqual({ budget, whole: true });
    }
  });
});
