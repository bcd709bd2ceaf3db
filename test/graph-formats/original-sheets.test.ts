// The original AutoGRAMS authors' five example sheets (original-sheets/README.md), imported as
// they are, and run where their code can run: their Python is translated at import.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { importSpreadsheet } from "@autograms/compiler";
import { Agent, validateGraph, type ChatModel, type Graph } from "@autograms/runtime";

const SHEETS = ["fraction_agent", "merge_sort_agent", "merge_sort_fn", "recruiter_agent_with_email", "simple_example"];

function load(name: string): Graph {
  const text = readFileSync(join(import.meta.dirname, "original-sheets", `${name}.csv`), "utf8");
  const { graph, diagnostics } = importSpreadsheet(text, { fileName: `${name}.csv`, agent: name });
  expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return graph as Graph;
}

/** A model that answers completions and choices from fixed lists, in order, and records what it was asked. */
function scripted(answers: string[], choices: number[] = []): ChatModel & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    complete: async (req) => {
      asked.push(req.node);
      const next = answers.shift();
      if (next === undefined) throw new Error(`no scripted answer left for ${req.node}`);
      return next;
    },
    choose: async () => choices.shift() ?? 0,
  };
}

describe("the original's example sheets", () => {
  it.each(SHEETS)("%s imports to a valid graph, every node at its row", (name) => {
    const graph = load(name);
    expect(validateGraph(graph).valid).toBe(true);
    expect(graph.source?.file).toBe(`${name}.csv`);
    expect(graph.nodes.every((n) => n.loc !== undefined && n.loc.line >= 2)).toBe(true);
  });

  it("merge_sort_fn: its Python is translated, and merge_sort sorts a list through agent.call", async () => {
    const graph = load("merge_sort_fn");
    const node = (n: string) => graph.nodes.find((x) => x.name === n)!;
    expect(node("merge_sort")).toMatchObject({ action: "code", assign: "len1", instruction: "list1.length" });
    expect(node("loop4.a")).toMatchObject({ instruction: "merged_list.push(element1)", boolean_condition: "element2>element1" });
    expect(node("first_half2")).toMatchObject({ assign: "n", instruction: "Math.floor(len1 / 2)" });
    expect(node("first_half3")).toMatchObject({ instruction: "list1.slice(0, n)" });
    expect(node("last_half3")).toMatchObject({ instruction: "list1.slice(-n)" });
    const agent = new Agent(graph, { model: scripted([]) });
    expect(await agent.call("merge_sort", [[8, 19, -2, 14.5, 3, 3, 0]])).toEqual([-2, 0, 3, 3, 8, 14.5, 19]);
    expect(await agent.call("merge_sort", [[5]])).toEqual([5]);
  });

  it("merge_sort_fn: the chat sorts the list the model writes down ($user_list: the text is parsed)", async () => {
    const agent = new Agent(load("merge_sort_fn"), { model: scripted(["[8,19,-2,14.5]"]) });
    let turn = await agent.reply("");
    expect(turn.reply).toBe("Hello, please provide me a comma separated list of numbers to sort");
    turn = await agent.reply("8,19,-2,14.5", JSON.parse(JSON.stringify(turn.memory)));
    expect(turn.reply).toBe("The sorted list is [-2,8,14.5,19]");
  });

  it("simple_example: holds its conversation", async () => {
    const model = scripted(["AutoGRAMS was released.", "Sure."]);
    const agent = new Agent(load("simple_example"), { model: { ...model, choose: async () => 0 } });
    let turn = await agent.reply("");
    expect(turn.reply).toBe("Would you like me to tell you more about  the latest advances in AI?");
    turn = await agent.reply("yes", turn.memory);
    expect(turn.reply).toBe("AutoGRAMS was released.");
    turn = await agent.reply("tell me more", turn.memory);
    expect(turn).toMatchObject({ reply: "Sure.", done: false });
  });

  it("recruiter_agent_with_email: from the greeting to the email written for the manager", async () => {
    // ask_ready: yes; ask_background: detailed (yes); ask_exp: a number (C); check_exp: yes.
    const model = scripted(["Hi, I'm Daisy. Ready?", "Tell me about your background.", "Which protein was hardest?", "A summary of the background.",
      "What are your salary expectations?", "The user is fine with the range.", "Dear hiring manager, ...", "That's great, we will be in touch."], [0, 0, 2, 0]);
    const agent = new Agent(load("recruiter_agent_with_email"), { model });
    let turn = await agent.reply("");
    for (const user of ["ready", "I designed proteins for five years.", "Antibodies.", "Around 160k."]) {
      turn = await agent.reply(user, JSON.parse(JSON.stringify(turn.memory)));
    }
    expect(turn.reply).toBe("That's great, we will be in touch.");
    const globals = turn.memory.stack[0]!.vars;
    expect(globals).toMatchObject({ salary_range: "150k-180k", background: "A summary of the background.", email_to_manager: "Dear hiring manager, ..." });
    expect(model.asked).toContain("write_final_email");
  });

  it("fraction_agent: goes through its units by visits (u.n)", async () => {
    const model = scripted(["Hello, I am your tutor.", "Ready?", "A fraction is a part of a whole.", "To reduce a fraction..."]);
    const agent = new Agent(load("fraction_agent"), { model });
    let turn = await agent.reply("");
    expect(turn.reply).toBe("Hello, I am your tutor.");
    for (const user of ["hi", "ready", "sounds good"]) turn = await agent.reply(user, turn.memory);
    expect(model.asked).toEqual(["i1", "i2", "i3", "u.1"]);
  });

  it("merge_sort_agent: its list operations are thought nodes the model answers", async () => {
    const model = scripted(["[3,1]", "2", "1", "[3]", "1", "[1]", "1"]);
    const agent = new Agent(load("merge_sort_agent"), { model, limits: { maxSteps: 500 } });
    const turn = await agent.reply("");
    expect(turn.reply).toBe("Hello, please provide me a comma separated list of numbers to sort");
    // The sort asks the model for lengths, halves, elements: it runs (the answers run out before the end).
    await expect(agent.reply("3,1", turn.memory)).rejects.toThrow(/no scripted answer left/);
    expect(model.asked.slice(0, 3)).toEqual(["i2", "len", "first_half2"]);
  });
});
