import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { importSpreadsheet, type SpreadsheetDiagnostic } from "@autograms/compiler";
import { Agent, validateGraph, type GraphNode } from "@autograms/runtime";

const sheet = (name: string) => readFileSync(join(import.meta.dirname, "spreadsheets", `${name}.csv`), "utf8");
const SHEETS = ["simple_example", "recruiter", "fraction_visits", "merge_sort_fn"];

function imported(name: string) {
  const result = importSpreadsheet(sheet(name), { fileName: `${name}.csv`, agent: name });
  if (!result.graph) throw new Error(result.diagnostics.map((d) => d.message).join("\n"));
  return {
    graph: result.graph,
    diagnostics: result.diagnostics,
    node: (n: string) => result.graph?.nodes.find((x) => x.name === n) as GraphNode,
  };
}

/** Only what a reader of the message needs: code, where, and the message. */
const brief = (ds: SpreadsheetDiagnostic[]) =>
  ds.map((d) => ({ code: d.code, severity: d.severity, row: d.row, sheetColumn: d.sheetColumn, message: d.message }));

describe("importSpreadsheet: sheets shaped like the original's examples", () => {
  it.each(SHEETS)("%s imports to a valid graph equal to its snapshot", async (name) => {
    const { graph } = imported(name);
    expect(validateGraph(graph).valid).toBe(true);
    await expect(`${JSON.stringify(graph, null, 2)}\n`).toMatchFileSnapshot(`./spreadsheets/${name}.graph.json`);
  });

  it("simple_example: headers in any case with spaces, lists split and trimmed, lettered columns collected", () => {
    const { graph, node, diagnostics } = imported("simple_example");
    expect(diagnostics).toEqual([]);
    expect(graph.nodes.map((n) => n.name)).toEqual([
      "start1",
      "tell_about_ai",
      "ask_user_preference",
      "continue_conversation",
    ]);
    expect(node("start1")).toEqual({
      name: "start1",
      action: "chat_exact",
      instruction: "Hi, I'm an AI assistant. Would you like to hear about AI?",
      transitions: ["tell_about_ai", "ask_user_preference"],
      transition_question: "Does the user want to hear about AI?",
      transition_choices: ["yes", "no"],
      user_instruction_transitions: [
        "say you would like to hear about AI",
        "say you would rather talk about something else",
      ],
      notes: "The agent greets the user.",
      // The row, so a run-time error names simple_example.csv:2.
      loc: { line: 2, column: 1, endLine: 2, endColumn: 1 },
    });
    expect(node("continue_conversation").transitions).toEqual(["continue_conversation"]);
  });

  it("recruiter: x= prefixes become assign, callable nodes become functions, numbers are numbers", () => {
    const { graph, node, diagnostics } = imported("recruiter");
    expect(diagnostics).toEqual([]);
    expect(node("set_salary")).toMatchObject({
      action: "thought_exact",
      assign: "salary_range",
      instruction: "150k-180k",
    });
    expect(graph.functions).toEqual({
      write_background: { kind: "function", params: [], entry: "write_background" },
      write_email: { kind: "function", params: ["summary"], entry: "write_email" },
    });
    expect(node("summarize_background")).toMatchObject({
      action: "function",
      assign: "background",
      instruction: "write_background()",
    });
    expect(node("salary_ok")).toMatchObject({ assign: "email", instruction: "write_email(background)" });
    expect(node("write_email")).toMatchObject({ action: "thought", transitions: ["return"] });
    // The original read every cell as text: "0.0" broke its transition context.
    expect(node("ask_ready").transition_context).toBe(0);
    expect(node("ask_background").transition_context).toBe(2);
    expect(node("ask_ready").question_prompt).toBe(
      "You are judging a conversation between a recruiter and a candidate.\n",
    );
    expect(node("ask_ready").transition_choices).toEqual(["yes, ready", "no, has a question", "wants to stop"]);
    expect(node("ask_ready").user_instruction_transitions?.[2]).toBe("<end>");
    expect(node("ask_salary").transition_question).toBe("Compared to $salary_range, are the user's expectations:");
  });

  it("fraction_visits: the state lists and transition_probs the original lost are read as lists", () => {
    const { node, graph } = imported("fraction_visits");
    expect(node("review.a")).toMatchObject({
      prerequisite_states: ["u.1"],
      blocking_states: ["u.3"],
      up_weight_states: ["u.1", "u.2"],
      down_weight_states: ["u.3"],
    });
    expect(node("next_unit")).toMatchObject({ transitions: ["u.n", "review.*"], transition_probs: [0.7, 0.3] });
    expect(node("change_topic")).toMatchObject({
      condition_interjection: "The user wants to talk about something else.",
      probability_interjection: 0.05,
      user_interjection: "ask about football",
    });
    // No start field: the runtime starts at start1, as the original did, wherever the row is.
    expect(graph.start).toBeUndefined();
    expect(graph.nodes.at(-1)?.name).toBe("start1");
  });

  it("merge_sort_fn: pandas' index column is skipped, python_function becomes code, $var in code is kept with a warning", () => {
    const { graph, node, diagnostics } = imported("merge_sort_fn");
    expect(graph.functions).toEqual({ merge_sort: { kind: "local_function", params: ["arr"], entry: "merge_sort" } });
    // The original's Python, translated: json.loads, and $x (the original pasted the text in).
    expect(node("get_list")).toMatchObject({
      action: "code",
      assign: "numbers",
      instruction:
        'JSON.parse((typeof _last_user_reply === "string" ? JSON.parse(_last_user_reply) : _last_user_reply))',
    });
    expect(node("split.b")).toMatchObject({ action: "code", assign: "mid", instruction: "Math.floor(arr.length / 2)" });
    expect(node("split.a")).toMatchObject({
      instruction: "arr",
      boolean_condition: "arr.length <= 1",
      transitions: ["return arr"],
    });
    expect(brief(diagnostics)).toEqual([
      {
        code: "csv_code_variable",
        severity: "warning",
        row: 3,
        sheetColumn: "E",
        message: `row 3, column E: '$_last_user_reply' in code: the original pasted the variable's text into the code; here it becomes the variable's value, parsed as JSON when it is text ((typeof _last_user_reply === "string" ? JSON.parse(_last_user_reply) : _last_user_reply))`,
      },
    ]);
    expect(diagnostics[0]).toMatchObject({ file: "merge_sort_fn.csv", line: 3, column: 36 });
  });
});

describe("importSpreadsheet: instructions", () => {
  const one = (action: string, instruction: string) => {
    const csv = `name,action,transitions,instruction\nn,${action},quit,"${instruction.replace(/"/g, '""')}"\n`;
    const result = importSpreadsheet(csv);
    const { loc: _loc, ...node } = result.graph?.nodes[0] ?? {};
    return { node: result.graph ? node : undefined, diagnostics: brief(result.diagnostics) };
  };

  it("takes only an identifier before '=' as an assignment; the rest stays text, with a warning", () => {
    expect(one("chat", "Note that 2+2=4 always.")).toEqual({
      node: { name: "n", action: "chat", instruction: "Note that 2+2=4 always.", transitions: ["quit"] },
      diagnostics: [
        {
          code: "csv_assignment_kept",
          severity: "warning",
          row: 2,
          sheetColumn: "D",
          message:
            "row 2, column D: the original would read this instruction as assigning to 'Notethat2+2' (text before its first '='); kept whole as text",
        },
      ],
    });
    expect(one("thought", "answer = What is 2+2? Say x=4.").node).toMatchObject({
      assign: "answer",
      instruction: "What is 2+2? Say x=4.",
    });
    expect(one("chat", "Say a\\=b exactly.").node).toMatchObject({ instruction: "Say a=b exactly." });
    expect(one("chat", "Say a\\=b exactly.").node).not.toHaveProperty("assign");
  });

  it("never reads a comparison in code as an assignment", () => {
    expect(one("python_function", "x == 1").node).toEqual({
      name: "n",
      action: "code",
      instruction: "x == 1",
      transitions: ["quit"],
    });
    expect(one("python_function", "total += 1").node).not.toHaveProperty("assign");
    expect(one("python_function", "a[0] = 5").node).toMatchObject({ instruction: "a[0] = 5" });
    expect(one("python_function", "y = x <= 2").node).toMatchObject({ assign: "y", instruction: "x <= 2" });
  });
});

describe("importSpreadsheet: bad sheets give diagnostics with row and column", () => {
  const errors = (csv: string) => {
    const result = importSpreadsheet(csv, { fileName: "bad.csv" });
    expect(result.graph).toBeNull();
    return brief(result.diagnostics.filter((d) => d.severity === "error"));
  };

  it("an unknown column, with a suggestion", () => {
    expect(errors("name,action,transitions,Transition Choise A\nn,chat,quit,x\n")).toEqual([
      {
        code: "csv_unknown_column",
        severity: "error",
        row: 1,
        sheetColumn: "D",
        message: "row 1, column D: unknown column 'Transition Choise A' (did you mean 'transition_choice_a'?)",
      },
    ]);
    expect(errors("name,action,transitions,colour\nn,chat,quit,x\n")[0]?.message).toBe(
      "row 1, column D: unknown column 'colour'; see docs/spreadsheets.md for the columns",
    );
    expect(errors("name,action,transitions,\nn,chat,quit,x\n")[0]?.message).toBe(
      "row 1, column D: a column without a header has cells filled in: give it a header, or empty it",
    );
    // Empty columns without a header (spreadsheet programs write them) are no problem.
    expect(importSpreadsheet("name,action,transitions,,\nn,chat,quit,,\n").diagnostics).toEqual([]);
  });

  it("a duplicate column and a missing required column", () => {
    expect(errors("Name,name,transitions\nn,n,quit\n")).toEqual([
      {
        code: "csv_duplicate_column",
        severity: "error",
        row: 1,
        sheetColumn: "B",
        message: "row 1, column B: column 'name' is the same column as A ('Name')",
      },
      {
        code: "csv_missing_column",
        severity: "error",
        row: 1,
        sheetColumn: undefined,
        message: "row 1: the header has no 'action' column",
      },
    ]);
  });

  it("an unknown action, a missing cell, bad numbers", () => {
    const csv = [
      "name,action,transitions,instruction,transition_context,probability_interjection,transition_probs",
      "a,chatt,quit,hi,,,",
      "b,chat,,hi,,,",
      'c,chat,quit,hi,1.5,2,"0.5, x"',
    ].join("\n");
    expect(errors(csv)).toEqual([
      {
        code: "csv_unknown_action",
        severity: "error",
        row: 2,
        sheetColumn: "B",
        message:
          "row 2, column B: unknown action 'chatt'; the actions are: chat, chat_exact, chat_suffix, thought, thought_exact, thought_qa, set_prompt, append_prompt, set_user_prompt, append_user_prompt, function, local_function, global_function, transition, code, python_function",
      },
      {
        code: "csv_missing_cell",
        severity: "error",
        row: 3,
        sheetColumn: "C",
        message: "row 3, column C: the node has no transitions (write quit to end the conversation there)",
      },
      {
        code: "csv_invalid_number",
        severity: "error",
        row: 4,
        sheetColumn: "E",
        message: "row 4, column E: transition_context must be a whole number of at least 0, not '1.5'",
      },
      {
        code: "csv_invalid_number",
        severity: "error",
        row: 4,
        sheetColumn: "F",
        message: "row 4, column F: probability_interjection must be a number from 0 to 1, not '2'",
      },
      {
        code: "csv_invalid_number",
        severity: "error",
        row: 4,
        sheetColumn: "G",
        message: "row 4, column G: transition_probs must be comma-separated numbers of at least 0, not '0.5, x'",
      },
    ]);
  });

  it("a gap in lettered columns and a cell right of the header", () => {
    expect(
      errors(
        'name,action,transitions,transition_question,transition_choice_a,transition_choice_b,transition_choice_c\nn,chat,"a,b",q?,yes,,no,extra\na,chat,quit\nb,chat,quit\n',
      ),
    ).toEqual([
      {
        code: "csv_extra_cell",
        severity: "error",
        row: 2,
        sheetColumn: "H",
        message:
          "row 2, column H: a filled cell right of the last column ('extra'); give the column a header or empty the cell",
      },
      {
        code: "csv_choice_gap",
        severity: "error",
        row: 2,
        sheetColumn: "G",
        message:
          "row 2, column G: transition_choice_c is filled but transition_choice_b is empty: lettered columns must be filled from a without gaps, one per transition",
      },
    ]);
  });

  it("calls to unknown functions, one function called with two kinds, two definitions", () => {
    const csv = [
      "name,action,transitions,instruction",
      "a,function,b,x=f(1)",
      "b,local_function,c,f(2)",
      "c,global_function,quit,g()",
      "f(n),thought,return,Think about $n.",
      "f(m),thought,return,Again.",
    ].join("\n");
    expect(errors(csv)).toEqual([
      {
        code: "csv_duplicate_function",
        severity: "error",
        row: 6,
        sheetColumn: "A",
        message: "row 6, column A: function 'f' is already defined by the callable node in row 5",
      },
      {
        code: "csv_function_kind",
        severity: "error",
        row: 3,
        sheetColumn: "B",
        message:
          "row 3, column B: function 'f' is called as local_function here but as function in row 2; a function has one kind",
      },
      {
        code: "csv_unknown_function",
        severity: "error",
        row: 4,
        sheetColumn: "D",
        message: "row 4, column D: 'g' is not a function: define it with a callable node named g(...)",
      },
    ]);
  });

  it("the graph format's own rules, at the row and column concerned", () => {
    expect(
      errors('name,action,transitions,instruction\na,chat,"b, nowhere",hi\nb,chat,quit,hi\nb,chat,quit,again\n'),
    ).toEqual([
      {
        code: "csv_invalid_graph",
        severity: "error",
        row: 2,
        sheetColumn: "C",
        message: "row 2, column C: node 'a': has 2 transitions but 0 transition_choices",
      },
      {
        code: "csv_invalid_graph",
        severity: "error",
        row: 2,
        sheetColumn: "C",
        message: "row 2, column C: node 'a': has several transitions but no transition_question",
      },
      {
        code: "csv_invalid_graph",
        severity: "error",
        row: 4,
        sheetColumn: "A",
        message: "row 4, column A: node 'b': duplicate node name",
      },
      {
        code: "csv_invalid_graph",
        severity: "error",
        row: 2,
        sheetColumn: "C",
        message: "row 2, column C: node 'a': transition to missing node 'nowhere'",
      },
    ]);
  });

  it("malformed CSV: an unclosed quote and text after a closing quote, with line and column", () => {
    const result = importSpreadsheet('name,action,transitions\na,chat,"quit\n', { fileName: "bad.csv" });
    expect(result.graph).toBeNull();
    expect(result.diagnostics[0]).toMatchObject({
      code: "csv_syntax",
      line: 2,
      column: 8,
      row: 2,
      sheetColumn: "C",
      message: "row 2, column C: a quoted cell is never closed (a '\"' is missing)",
    });
    const after = importSpreadsheet('name,action,transitions\na,chat,"quit"x\n');
    expect(after.diagnostics[0]).toMatchObject({ code: "csv_syntax", line: 2, column: 14, row: 2 });
  });

  it("an empty file or a header without rows", () => {
    expect(errors("")).toEqual([
      {
        code: "csv_empty",
        severity: "error",
        row: 1,
        sheetColumn: undefined,
        message:
          "row 1: the spreadsheet is empty: the first row must name the columns (name, action, transitions, instruction, ...)",
      },
    ]);
    expect(errors("name,action,transitions\n\n,,\n")).toEqual([
      {
        code: "csv_empty",
        severity: "error",
        row: 1,
        sheetColumn: undefined,
        message: "row 1: the spreadsheet has a header but no node rows",
      },
    ]);
  });

  it("never throws, whatever the text: damaged example sheets give diagnostics or a valid graph", () => {
    const sources = SHEETS.map(sheet);
    const damage = fc.record({
      source: fc.integer({ min: 0, max: sources.length - 1 }),
      at: fc.nat(),
      cut: fc.nat({ max: 40 }),
      insert: fc.string({
        unit: fc.constantFrom(",", '"', "\n", "\r", "=", "(", ")", "$", "a", " ", "é"),
        maxLength: 8,
      }),
    });
    fc.assert(
      fc.property(damage, ({ source, at, cut, insert }) => {
        const text = sources[source] as string;
        const i = at % (text.length + 1);
        const damaged = text.slice(0, i) + insert + text.slice(i + cut);
        const result = importSpreadsheet(damaged);
        for (const d of result.diagnostics) {
          expect(d.row).toBeGreaterThanOrEqual(1);
          expect(d.line).toBeGreaterThanOrEqual(1);
          expect(d.message).toMatch(/^row \d+/);
        }
        if (result.graph) expect(validateGraph(result.graph).valid).toBe(true);
        else expect(result.diagnostics.some((d) => d.severity === "error")).toBe(true);
      }),
      { numRuns: 400 },
    );
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (text) => {
        const result = importSpreadsheet(text);
        expect(result.graph !== null || result.diagnostics.length > 0).toBe(true);
      }),
    );
  });
});

describe("importSpreadsheet: code", () => {
  const sheet = (rows: string) =>
    importSpreadsheet(`name,action,transitions,instruction,boolean_condition\n${rows}`, { fileName: "calc.csv" });

  it("translates the original's Python: len, append, slices, True/None, and/or/not, in, //, str/int, math, json", () => {
    const { graph, diagnostics } = sheet(
      [
        "a,python_function,b,n = len(xs) // 2,",
        'b,python_function,c,"list.append(xs, str(n))",',
        'c,python_function,d.*,"ys = xs[1:] + xs[:-1]",',
        "d.a,transition,quit,,n > 0 and not done or x is None",
        "d.b,python_function,e,\"ok = 'a' in ys and math.sqrt(int(s)) == True\",",
        "e,python_function,quit,\"print('ok:', ok, len(ys))\",",
      ].join("\n"),
    );
    expect(diagnostics).toEqual([]);
    const node = (n: string) => graph!.nodes.find((x) => x.name === n)!;
    expect(node("a")).toMatchObject({ assign: "n", instruction: "Math.floor(xs.length / 2)" });
    expect(node("b")).toMatchObject({ instruction: "xs.push(String(n))" });
    expect(node("c")).toMatchObject({ assign: "ys", instruction: "xs.slice(1) + xs.slice(0, -1)" });
    expect(node("d.a")).toMatchObject({ boolean_condition: "((n > 0) && (!done)) || (x === null)" });
    expect(node("d.b")).toMatchObject({
      assign: "ok",
      instruction: 'ys.includes("a") && (Math.sqrt(Math.trunc(Number(s))) == true)',
    });
    expect(node("e")).toMatchObject({ instruction: 'console.log("ok:", ok, ys.length)' });
  });

  it("reports Python without a translation, and code the evaluator refuses, at the row and column", () => {
    const result = sheet(
      [
        'a,python_function,b,"total = sum(range(n))",',
        "b,transition,quit,,n >> > 1",
        "c,python_function,quit,[x * 2 for x in xs],",
      ].join("\n"),
    );
    expect(result.graph).toBeNull();
    expect(brief(result.diagnostics)).toEqual([
      {
        code: "csv_invalid_code",
        severity: "error",
        row: 2,
        sheetColumn: "D",
        message:
          "row 2, column D: Python's range() has no translation (at character 5 of 'sum(range(n))'); write the evaluator's code instead (docs/spreadsheets.md)",
      },
      {
        code: "csv_invalid_code",
        severity: "error",
        row: 4,
        sheetColumn: "D",
        message:
          "row 4, column D: a list comprehension has no translation (at character 8 of '[x * 2 for x in xs]'); write the evaluator's code instead (docs/spreadsheets.md)",
      },
    ]);
    // Once the Python is fixed, the condition the evaluator cannot parse is the error left.
    const refused = sheet("a,python_function,b,total = 0,\nb,transition,quit,,n >> > 1");
    expect(brief(refused.diagnostics)).toEqual([
      {
        code: "csv_invalid_code",
        severity: "error",
        row: 3,
        sheetColumn: "E",
        message:
          "row 3, column E: the boolean_condition 'n >> > 1' is not code the evaluator runs: unexpected '>' (at 1:6)",
      },
    ]);
  });

  it("reports a call of a function that exists nowhere, and what the evaluator lacks, at the row and column", () => {
    // The original evals a python_function's instruction only when the node runs
    // (autograms/nodes/python_nodes.py:43, autograms/statement_interpreter.py:80 at commit 243158a),
    // so such a sheet loaded and failed mid-conversation with a NameError.
    const result = sheet(
      [
        "a,python_function,b,scrambled=frobnicate(word),",
        "b,transition,c,,word.matchAll('x')",
        "c,transition,return Math.clamp(1),,",
      ].join("\n"),
    );
    expect(result.graph).toBeNull();
    expect(brief(result.diagnostics)).toEqual([
      {
        code: "csv_invalid_code",
        severity: "error",
        row: 2,
        sheetColumn: "D",
        message: expect.stringMatching(
          /^row 2, column D: the code 'frobnicate\(word\)': 'frobnicate\(\)' is not a function agent code can call: it is none of the evaluator's functions \(String, .*encodeURIComponent.*\) and no tool of the agent/,
        ),
      },
      {
        code: "csv_invalid_code",
        severity: "error",
        row: 3,
        sheetColumn: "E",
        message:
          "row 3, column E: the boolean_condition 'word.matchAll(\"x\")': '.matchAll()' is not available in agent code: regular expressions are not available in agent code; use includes, startsWith, endsWith, indexOf, split or replaceAll, or a tool (at character 1)",
      },
      {
        code: "csv_invalid_code",
        severity: "error",
        row: 4,
        sheetColumn: "C",
        message:
          "row 4, column C: the return expression 'Math.clamp(1)' is not code the evaluator runs: Math.clamp is not available in the sandbox (at 1:1)",
      },
    ]);
  });

  it("keeps a sheet in the evaluator's language as written (code rows, or an assign column)", () => {
    const csv =
      "name,action,transitions,instruction,assign,boolean_condition\na,code,b,count = count + 1,,\nb,code,c.*,xs.length,n,\nc.a,transition,quit,,,k in obj\nc.b,transition,quit,,,\n";
    const { graph, diagnostics } = importSpreadsheet(csv);
    expect(diagnostics).toEqual([]);
    expect(graph!.nodes.map(({ loc: _loc, ...n }) => n)).toEqual([
      { name: "a", action: "code", instruction: "count = count + 1", transitions: ["b"] },
      { name: "b", action: "code", assign: "n", instruction: "xs.length", transitions: ["c.*"] },
      { name: "c.a", action: "transition", transitions: ["quit"], boolean_condition: "k in obj" },
      { name: "c.b", action: "transition", transitions: ["quit"] },
    ]);
  });

  it("gives every node its row, so a run-time error names sheet.csv:ROW", async () => {
    const { graph } = sheet("start1,chat_exact,a,Hello,\na,python_function,b,x = missing + 1,\nb,chat_exact,quit,$x,");
    const agent = new Agent(graph!, { model: { complete: async () => "", choose: async () => 0 } });
    const first = await agent.reply("");
    const error = await agent.reply("hi", first.memory).catch((e: unknown) => e);
    expect(String((error as Error).message)).toMatch(/^calc\.csv:3:1: node 'a': /);
  });
});
