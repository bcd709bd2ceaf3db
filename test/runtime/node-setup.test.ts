// A node whose text has `${expr}` placeholders computes them itself, on entry, whichever way it
// is entered: falling through, a transition by name, `$var`, `X.*`, `X.n`, an interjection; and a
// resumed conversation still has the values its transition question needs.
import { describe, expect, it } from "vitest";
import { Agent, type Graph, type TraceEvent } from "@autograms/runtime";
import { compileOk } from "../compiler/support/compile.js";
import { queue, TestModel } from "./helpers.js";

const header = `import { Autogram, chat, chatExact, exec_node } from "@autograms/runtime";\n`;

/** The agent's replies to the user's messages, one turn each, memory through JSON between turns. */
async function replies(
  graph: Graph,
  messages: string[],
  choices: number[] = [],
  events: TraceEvent[] = [],
): Promise<string[]> {
  const agent = new Agent(graph, { model: new TestModel(undefined, queue(choices)) });
  const out: string[] = [];
  let memory: unknown;
  for (const message of messages) {
    const r = await agent.reply(message, memory as never, { trace: (e) => events.push(e) });
    out.push(r.reply ?? "");
    memory = JSON.parse(JSON.stringify(r.memory));
  }
  return out;
}

describe("a node's placeholders are computed by the node itself", () => {
  const shop = compileOk(`${header}
export default class Shop extends Autogram {
  order: string[] = ["tea"];
  main() {
    chatExact("What would you like?", { transitions: ["next", "checkout"], transition_question: "Done ordering?", transition_choices: ["no", "yes"] });
    this.order.push(this._last_user_reply);
    chatExact(\`Your order: \${this.order.join(" and ")}.\`, { name: "checkout" });
  }
}`);

  it("compiles the placeholder into the node's setup: no code node before it", () => {
    const checkout = shop.nodes.find((n) => n.name === "checkout")!;
    expect(checkout.setup).toMatch(/^let _tmp_\w+ = order\.join\(" and "\)$/);
    expect(checkout.instruction).toMatch(/^Your order: \$_tmp_\w+\.$/);
    expect(shop.nodes.filter((n) => n.action === "code").map((n) => n.instruction)).toEqual([
      "order.push(_last_user_reply)",
    ]);
  });

  it("falling through", async () => {
    expect(await replies(shop, ["", "cake"], [0])).toEqual(["What would you like?", "Your order: tea and cake."]);
  });

  it("a transition by name, past the statement before it", async () => {
    const events: TraceEvent[] = [];
    expect(await replies(shop, ["", "that's all"], [1], events)).toEqual(["What would you like?", "Your order: tea."]);
    const at = events.filter((e) => e.node === "checkout").map((e) => e.kind);
    expect(at.slice(0, 2)).toEqual(["setup", "exact"]);
    const setup = events.find((e) => e.kind === "setup")!;
    expect(setup.changes).toEqual([{ name: expect.stringMatching(/^_tmp_/), after: "tea" }]);
  });

  it("a $var transition", async () => {
    const graph = compileOk(`${header}
export default class Dynamic extends Autogram {
  items = ["a", "b"];
  main() {
    let target = "summary";
    exec_node({ action: "transition", transitions: ["$target"] });
    chatExact("never shown");
    chatExact(\`Count: \${this.items.length * 10}\`, { name: "summary" });
  }
}`);
    expect(await replies(graph, [""])).toEqual(["Count: 20"]);
  });

  it("X.* and X.n", async () => {
    const graph = compileOk(`${header}
export default class Series extends Autogram {
  n = 3;
  main() {
    exec_node({ action: "transition", transitions: ["pick.*"] });
    chatExact(\`first \${this.n + 1}\`, { name: "pick.a", boolean_condition: "n > 5", transitions: ["step.n"] });
    chatExact(\`second \${this.n + 2}\`, { name: "pick.b", transitions: ["step.n"] });
    chatExact(\`step one \${this.n * 2}\`, { name: "step.1", transitions: ["step.n"] });
    chatExact(\`step two \${this.n * 3}\`, { name: "step.2", transitions: ["quit"] });
  }
}`);
    expect(await replies(graph, ["", "x", "y"])).toEqual(["second 5", "step one 6", "step two 9"]);
  });

  it("an interjection", async () => {
    const graph = compileOk(`${header}
export default class Interjecting extends Autogram {
  topics = ["fractions", "decimals"];
  main() {
    chatExact("Welcome.", { name: "welcome" });
    exec_node({
      action: "chat_exact", name: "back",
      instruction: \`Let's get back to \${this.topics.join(" and ")}.\`,
      condition_interjection: "The user talks about something else.",
      transitions: ["welcome"],
    });
    chatExact("Next.");
  }
}`);
    // The interjection question is answered 0 (the first condition holds).
    expect(await replies(graph, ["", "football!"], [0])).toEqual([
      "Welcome.",
      "Let's get back to fractions and decimals.",
    ]);
  });

  it("a resumed conversation: the transition question's placeholder was computed when the node was entered", async () => {
    const graph = compileOk(`${header}
export default class Resume extends Autogram {
  options = ["red", "blue"];
  main() {
    chatExact("Pick a colour.", {
      name: "ask", transitions: ["next", "ask"],
      transition_question: \`Did the user pick one of \${this.options.join(", ")}?\`, transition_choices: ["yes", "no"],
    });
    chatExact("Thanks.");
  }
}`);
    const model = new TestModel(undefined, queue([0]));
    const agent = new Agent(graph, { model });
    const first = await agent.reply("");
    const second = await agent.reply("red", JSON.parse(JSON.stringify(first.memory)));
    expect(second.reply).toBe("Thanks.");
    expect(model.choices[0]!.prompt).toContain("Did the user pick one of red, blue?");
  });

  it("an agent call in a placeholder of a node a jump enters is refused where it is written", async () => {
    const { compile } = await import("@autograms/compiler");
    const errors = (jump: string, fields = "") =>
      compile(
        `${header}
export default class Refused extends Autogram {
  main() {
    let target = "checkout";
    chatExact("Start.", { transitions: ["${jump}"] });
    chatExact("Skipped.");
    chatExact(\`Total: \${this.total()}\`, { name: "checkout"${fields} });
    chatExact(\`Also: \${this.total()}\`, { name: "step.1" });
  }
  total(): number { return 1; }
}`,
        { fileName: "refused.ts" },
      )
        .diagnostics.filter((d) => d.severity === "error")
        .map((d) => `${d.line}:${d.column}:${d.code}`);
    expect(errors("checkout")).toEqual(["8:25:conditional_agent_call"]);
    expect(errors("$target")).toEqual(["8:25:conditional_agent_call", "9:24:conditional_agent_call"]);
    expect(errors("step.n")).toEqual(["9:24:conditional_agent_call"]);
    expect(errors("next", `, condition_interjection: "The user asks for the total."`)).toEqual([
      "8:25:conditional_agent_call",
    ]);
    // Named, but no jump enters it: the calls run before it as the statement before falls through.
    expect(errors("next")).toEqual([]);
  });
});
