// The original AutoGRAMS authors' five example sheets (original-sheets/README.md), imported as
// they are, and run where their code can run: their Python is translated at import.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { exportSpreadsheet, importSpreadsheet, parseCsv, SpreadsheetExportError } from "@autograms/compiler";
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
    expect(node("loop4.a")).toMatchObject({
      instruction: "merged_list.push(element1)",
      boolean_condition: "element2>element1",
    });
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
    const model = scripted(
      [
        "Hi, I'm Daisy. Ready?",
        "Tell me about your background.",
        "Which protein was hardest?",
        "A summary of the background.",
        "What are your salary expectations?",
        "The user is fine with the range.",
        "Dear hiring manager, ...",
        "That's great, we will be in touch.",
      ],
      [0, 0, 2, 0],
    );
    const agent = new Agent(load("recruiter_agent_with_email"), { model });
    let turn = await agent.reply("");
    for (const user of ["ready", "I designed proteins for five years.", "Antibodies.", "Around 160k."]) {
      turn = await agent.reply(user, JSON.parse(JSON.stringify(turn.memory)));
    }
    expect(turn.reply).toBe("That's great, we will be in touch.");
    const globals = turn.memory.stack[0]!.vars;
    expect(globals).toMatchObject({
      salary_range: "150k-180k",
      background: "A summary of the background.",
      email_to_manager: "Dear hiring manager, ...",
    });
    expect(model.asked).toContain("write_final_email");
  });

  it("fraction_agent: goes through its units by visits (u.n)", async () => {
    const model = scripted([
      "Hello, I am your tutor.",
      "Ready?",
      "A fraction is a part of a whole.",
      "To reduce a fraction...",
    ]);
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

/**
 * The original's reader, as strict as it is: it rejects any column outside its EXPECTED_FIELDS
 * ("Invalid field ...", autograms/autogram.py:529-536; the list: autograms/nodes/base_node.py:17,
 * commit 243158a) and any action outside NODE_TYPES (autograms/nodes/__init__.py). What it
 * accepts is then read by importSpreadsheet.
 */
const ORIGINAL_FIELDS = new Set([
  "action",
  "name",
  "transitions",
  "state_category",
  "notes",
  "transition_probs",
  "instruction",
  "instruction_short",
  ..."abcde".split("").map((c) => `user_instruction_transition_${c}`),
  "question_prompt",
  "transition_question",
  ..."abcde".split("").map((c) => `transition_choice_${c}`),
  "user_interjection",
  "condition_interjection",
  "probability_interjection",
  "example_interjection",
  "prerequisite_states",
  "blocking_states",
  "up_weight_states",
  "down_weight_states",
  "boolean_condition",
  "required_revisit",
  "conv_scope",
  "conv_context",
  "transition_context",
  "reply_start",
  "instruction_template",
  "lineno",
  "def_type",
]);
const ORIGINAL_ACTIONS = new Set([
  "function",
  "local_function",
  "global_function",
  "transition",
  "chat",
  "chat_exact",
  "chat_suffix",
  "set_prompt",
  "append_prompt",
  "set_user_prompt",
  "append_user_prompt",
  "thought",
  "thought_exact",
  "thought_qa",
  "python_function",
]);

function readAsTheOriginal(csv: string): Graph {
  const rows = parseCsv(csv).rows.map((r) => r.map((c) => c.value));
  const header = rows[0]!.map((h) => h.toLowerCase().replace(/ /g, "_"));
  for (const field of header) if (!ORIGINAL_FIELDS.has(field)) throw new Error(`Invalid field ${field}.`);
  const action = header.indexOf("action");
  for (const row of rows.slice(1))
    if (!ORIGINAL_ACTIONS.has(row[action]!)) throw new Error(`no node type ${row[action]}`);
  const { graph, diagnostics } = importSpreadsheet(csv);
  expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return graph!;
}

const sheetPart = (graph: Graph) => graph.nodes.map(({ loc: _loc, ...node }) => node);

describe("the original's example sheets, exported in the original's format", () => {
  it.each(SHEETS)(
    "%s: exported, read back by a reader that takes only the original's columns, or refused naming its nodes",
    (name) => {
      const graph = load(name);
      let csv: string;
      try {
        csv = exportSpreadsheet(graph);
      } catch (error) {
        // Code translated from the original's Python is the evaluator's language now: said in a
        // sheet again it would not be the same Python, so the export names each such node.
        expect(error).toBeInstanceOf(SpreadsheetExportError);
        const { problems } = error as SpreadsheetExportError;
        expect(problems.length).toBeGreaterThan(0);
        for (const p of problems) expect(graph.nodes.map((n) => n.name)).toContain(p.node);
        expect(problems.every((p) => /is not the same code in Python/.test(p.message))).toBe(true);
        return;
      }
      expect(sheetPart(readAsTheOriginal(csv))).toEqual(sheetPart(graph));
    },
  );

  it("every sheet goes both ways, its translated Python written back as the original wrote it", () => {
    const exported = SHEETS.filter((name) => {
      try {
        exportSpreadsheet(load(name));
        return true;
      } catch {
        return false;
      }
    });
    expect(exported).toEqual(SHEETS);
    expect(exportSpreadsheet(load("recruiter_agent_with_email"))).not.toContain(",assign");
  });

  it.each(SHEETS)(
    "%s: each name, instruction, transitions and condition cell of the export is the original's",
    (name) => {
      const text = readFileSync(join(import.meta.dirname, "original-sheets", `${name}.csv`), "utf8");
      const cells = (csv: string) => {
        const [header, ...rows] = parseCsv(csv).rows.map((r) => r.map((c) => c.value));
        const at = (field: string) => header!.findIndex((h) => h.toLowerCase().replace(/ /g, "_") === field);
        const code = rows.filter((r) => r.some((c) => c.trim() !== ""));
        return ["name", "instruction", "transitions", "boolean_condition"].map((f) =>
          // The export writes an `x=` prefix without spaces around its `=`.
          code.map((r) => (at(f) < 0 ? "" : r[at(f)]!.replace(/^(\s*[A-Za-z_]\w*)\s*=\s*(?!=)/, "$1="))),
        );
      };
      expect(cells(exportSpreadsheet(load(name)))).toEqual(cells(text));
    },
  );

  it("an edited translated field is exported as the evaluator's code it now is, so refused", () => {
    const graph = load("merge_sort_fn");
    const node = graph.nodes.find((n) => n.name === "merge_sort")!;
    expect(node.python).toEqual({ instruction: "len(list1)" });
    node.instruction = "[...list1].length";
    expect(() => exportSpreadsheet(graph)).toThrow(
      "node 'merge_sort': its code '[...list1].length' is not the same code in Python",
    );
  });

  it("a graph the original's format cannot hold is an export error naming each node", () => {
    const graph: Graph = {
      format: "autograms-graph",
      version: 1,
      agent: "A",
      globals: {},
      functions: {},
      nodes: [
        { name: "a", action: "chat", instruction: "Say that 2+2=4.", transitions: ["b"] },
        { name: "b", action: "code", instruction: "let n = xs.length", transitions: ["c"] },
        {
          name: "c",
          action: "chat_exact",
          instruction: "Pick.",
          transitions: ["a", "b", "c", "d", "e", "f"],
          transition_question: "Which?",
          transition_choices: ["1", "2", "3", "4", "5", "6"],
        },
        { name: "d", action: "chat", instruction: "Hi ${n}", setup: "let _t = n", transitions: ["e"] },
        { name: "e", action: "code", assign: "total", instruction: "total + 1", transitions: ["f"] },
        { name: "f", action: "transition", transitions: ["quit"], boolean_condition: "x === 1" },
      ],
    };
    expect(() => exportSpreadsheet(graph)).toThrow(SpreadsheetExportError);
    const problems = (() => {
      try {
        exportSpreadsheet(graph);
        return [];
      } catch (e) {
        return (e as SpreadsheetExportError).problems;
      }
    })();
    expect(problems).toEqual([
      { node: "a", message: "its instruction holds '=', which the original reads as an assignment" },
      {
        node: "b",
        message: "its code 'let n = xs.length' is not the same code in Python, the language the original runs code in",
      },
      { node: "c", message: "its 6 transition_choices need more lettered columns than the original's 5 (a to e)" },
      { node: "d", message: "its field 'setup' has no column in the original's sheets" },
      {
        node: "f",
        message:
          "its boolean_condition 'x === 1' is not the same code in Python, the language the original runs code in",
      },
    ]);
    // Without the nodes it cannot hold, the sheet has exactly the original's columns; a code row
    // is the original's python_function row, `x=expr`.
    const said: Graph = {
      ...graph,
      nodes: [
        { ...graph.nodes[4]!, transitions: ["g"] },
        { name: "g", action: "chat", instruction: "Bye.", transitions: ["quit"] },
      ],
    };
    const csv = exportSpreadsheet(said);
    expect(csv).toBe("action,name,transitions,instruction\npython_function,e,g,total=total + 1\nchat,g,quit,Bye.\n");
    expect(sheetPart(readAsTheOriginal(csv))).toEqual(sheetPart(said));
  });
});
