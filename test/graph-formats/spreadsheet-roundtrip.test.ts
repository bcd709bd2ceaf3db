import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import {
  compile,
  exportSpreadsheet,
  importSpreadsheet,
  moduleTools,
  parseCsv,
  spreadsheetExportLosses,
  writeCsv,
} from "@autograms/compiler";
import { ACTIONS, FUNCTION_KINDS, type Graph, type GraphNode } from "@autograms/runtime";

/** Every field, code in the evaluator's language: the format that holds any graph. */
const AUTOGRAMS = { format: "autograms" } as const;

/** The parts of a graph a spreadsheet holds: nodes without loc, functions without loc. */
function sheetPart(graph: Graph) {
  return {
    nodes: graph.nodes.map(({ loc: _loc, ...rest }) => rest),
    functions: Object.fromEntries(Object.entries(graph.functions).map(([k, { loc: _loc, ...rest }]) => [k, rest])),
  };
}

function reimport(graph: Graph): Graph {
  const result = importSpreadsheet(exportSpreadsheet(graph, AUTOGRAMS), { agent: graph.agent });
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return result.graph as Graph;
}

describe("parseCsv / writeCsv", () => {
  it("read back any rows they write", () => {
    const cell = fc.string({ unit: "binary", maxLength: 12 });
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 5 }), (rows) => {
        const table = parseCsv(writeCsv(rows));
        expect(table.errors).toEqual([]);
        expect(table.rows.map((r) => r.map((c) => c.value))).toEqual(
          rows.map((r) => r.map((c) => c.replace(/\r\n?/g, "\n"))),
        );
      }),
    );
  });

  it("reads CRLF, a byte order mark, quoted line breaks and doubled quotes", () => {
    const table = parseCsv('\uFEFFa,"b ""q""\r\nline"\r\nc,\r\n');
    expect(table.rows.map((r) => r.map((c) => [c.value, c.line, c.column]))).toEqual([
      // Columns as an editor shows them: the invisible byte order mark takes none.
      [
        ["a", 1, 1],
        ['b "q"\nline', 1, 3],
      ],
      [
        ["c", 3, 1],
        ["", 3, 3],
      ],
    ]);
  });
});

describe("graph → CSV → graph", () => {
  it("keeps every node field and function of a compiled-style graph", () => {
    const graph = JSON.parse(
      readFileSync(join(import.meta.dirname, "fixtures", "functions.graph.json"), "utf8"),
    ) as Graph;
    expect(sheetPart(reimport(graph))).toEqual(sheetPart(graph));
  });

  it("writes the original's conventions (x= prefixes, callable names f(a,b)), and code rows as the evaluator's: action code, the assignment in its column", () => {
    const graph = JSON.parse(
      readFileSync(join(import.meta.dirname, "fixtures", "functions.graph.json"), "utf8"),
    ) as Graph;
    const rows = parseCsv(exportSpreadsheet(graph, AUTOGRAMS)).rows.map((r) => r.map((c) => c.value));
    const header = rows[0] as string[];
    const row = (name: string) => Object.fromEntries(header.map((h, i) => [h, rows.find((r) => r[1] === name)?.[i]]));
    expect(header.slice(0, 5)).toEqual(["action", "name", "transitions", "instruction", "assign"]);
    expect(row("doUnit(unit)")).toMatchObject({ action: "transition", transitions: "doUnit.problem" });
    expect(row("doUnit.problem")).toMatchObject({
      action: "thought",
      instruction: "problem=Write one short problem about $unit.",
    });
    expect(row("doUnit.check")).toMatchObject({
      action: "local_function",
      instruction: "verdict=checkAnswer(problem)",
    });
    expect(row("main.for_1.init")).toMatchObject({ action: "code", instruction: "let i = 0" });
    expect(row("main.for_1.a")).toMatchObject({ boolean_condition: "i < units.length" });
    expect(row("ask_ready")).toMatchObject({ transition_choice_a: "yes", transition_choice_b: "no" });
    expect(spreadsheetExportLosses(graph)).toEqual([
      "the initial values of the global variables (units): the sheet starts with none",
    ]);
  });

  it("escapes '=' in prose so neither reader takes text for an assignment", () => {
    const graph: Graph = {
      format: "autograms-graph",
      version: 1,
      agent: "A",
      globals: {},
      functions: {},
      nodes: [{ name: "n", action: "chat", instruction: "x=1 means a\\=b", transitions: ["quit"] }],
    };
    expect(exportSpreadsheet(graph, AUTOGRAMS)).toBe(
      "action,name,transitions,instruction,assign\nchat,n,quit,x\\=1 means a\\\\=b,\n",
    );
    expect(sheetPart(reimport(graph))).toEqual(sheetPart(graph));
  });

  it("keeps any graph whose fields the sheet holds (property)", () => {
    const name = fc
      .stringMatching(/^[a-z][a-z0-9_]{0,6}(\.[a-z0-9]{1,3})?$/)
      .filter((n) => !/\.n$/.test(n) && n !== "quit" && !n.startsWith("return"));
    // Text a cell holds as it is: something besides spaces (an all-space cell reads as empty).
    // Mostly the characters the format gives meaning to, some of any kind.
    // Code the evaluator runs, including what the original's reader would split or translate.
    const code = fc.constantFrom(
      "count = count + 1",
      "let y = 2",
      "x === 1 && y",
      "xs.push(1)",
      "a[0] = 5",
      "total += 1",
      "  n  ",
      "JSON.parse(s)",
      "n >= 2 ? 'a' : \"b\"",
      "String(x)",
      "k in obj",
      "True",
      "xs.slice(0, n)",
      "i++",
    );
    const condition = fc.constantFrom(
      "x > 1",
      "len1 == 1",
      "a && !b",
      "k in obj",
      "xs.length === 0",
      "Math.max(...xs) > 0",
      "True",
    );
    const char = fc.oneof(
      fc.constantFrom("=", "\\", ",", '"', "\n", "a", "x", " ", "$", "(", ")", "?", "{", "}"),
      fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
    );
    const text = fc
      .string({ unit: char, maxLength: 20 })
      .filter((s) => s.trim() !== "")
      .map((s) => s.replace(/\r\n?/g, "\n"));
    const identifier = fc.stringMatching(/^[a-z_][a-z0-9_]{0,5}$/);
    const prob = fc.double({ min: 0, max: 1, noNaN: true });
    const kind = fc.constantFrom(...FUNCTION_KINDS);
    const graphs = fc.record({
      names: fc.uniqueArray(name, { minLength: 1, maxLength: 6 }),
      kind,
      params: fc.uniqueArray(identifier, { maxLength: 3 }),
      seeds: fc.array(
        fc.record({
          action: fc.constantFrom(...ACTIONS.filter((a) => !(FUNCTION_KINDS as readonly string[]).includes(a))),
          call: fc.boolean(),
          instruction: text,
          code,
          assign: fc.option(identifier, { nil: undefined }),
          targets: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
          choices: fc.array(text, { minLength: 3, maxLength: 3 }),
          question: text,
          extra: fc.record(
            {
              state_category: text,
              notes: text,
              boolean_condition: condition,
              condition_interjection: text,
              question_prompt: text,
              transition_context: fc.nat(),
              probability_interjection: prob,
              prerequisite_states: fc.array(name, { minLength: 1, maxLength: 2 }),
            },
            { requiredKeys: [] },
          ),
        }),
        { minLength: 6, maxLength: 6 },
      ),
    });
    fc.assert(
      fc.property(graphs, ({ names, kind: fkind, params, seeds }) => {
        const all = ["f", ...names.filter((n) => n !== "f")];
        const targetOf = (k: number) =>
          [...all, "quit", "return", "return x + 1", "$next"][k % (all.length + 4)] as string;
        const nodes: GraphNode[] = all.map((nodeName, i) => {
          const seed = seeds[i % seeds.length] as (typeof seeds)[number];
          const transitions = nodeName === "f" ? ["return"] : seed.targets.map(targetOf);
          const several =
            transitions.length > 1
              ? { transition_question: seed.question, transition_choices: seed.choices.slice(0, transitions.length) }
              : {};
          const call = seed.call && nodeName !== "f";
          const action = call ? fkind : nodeName === "f" ? "transition" : seed.action;
          // Imported text with an assignment loses leading spaces (the original's reading), and code
          // that starts `name =` reads as an assignment: generate neither.
          let instruction = call
            ? `f(${params.map((_, j) => `v${j}`).join(", ")})`
            : action === "code"
              ? seed.code
              : seed.instruction;
          const assign = action === "transition" ? undefined : seed.assign;
          if (assign !== undefined && action !== "code") instruction = instruction.replace(/^\s+/, "") || "x";
          return {
            name: nodeName,
            action,
            ...(assign === undefined ? {} : { assign }),
            ...(action === "transition" ? {} : { instruction }),
            transitions,
            ...several,
            ...seed.extra,
          } as GraphNode;
        });
        const graph: Graph = {
          format: "autograms-graph",
          version: 1,
          agent: "P",
          globals: {},
          functions: {
            f: { kind: nodes.some((n) => n.action === fkind) ? fkind : "local_function", params, entry: "f" },
          },
          nodes,
        };
        const result = importSpreadsheet(exportSpreadsheet(graph, AUTOGRAMS));
        expect(result.diagnostics.filter((d) => d.severity === "error").map((d) => d.message)).toEqual([]);
        expect(sheetPart(result.graph as Graph)).toEqual(sheetPart(graph));
      }),
      { numRuns: 200 },
    );
  });
});

describe("CSV → graph → CSV", () => {
  it.each(["simple_example", "recruiter", "fraction_visits", "merge_sort_fn"])(
    "%s: the exported sheet imports to the same graph",
    (name) => {
      const csv = readFileSync(join(import.meta.dirname, "spreadsheets", `${name}.csv`), "utf8");
      const first = importSpreadsheet(csv, { agent: name }).graph as Graph;
      expect(reimport(first)).toEqual(first);
    },
  );
});

describe("graph → CSV → graph, exactly", () => {
  it("keeps a code statement that assigns a class field (this.count = this.count + 1) a statement, not an assign field", () => {
    const source = `import { Autogram, chat } from "@autograms/runtime";
export default class Counter extends Autogram {
  count = 0;
  main() {
    this.count = this.count + 1;
    const doubled = this.count * 2;
    chat(\`Count \${this.count}, doubled \${doubled}\`);
  }
}`;
    const { graph } = compile(source, { fileName: "counter.ts" });
    expect(graph).not.toBeNull();
    expect(
      graph!.nodes.some(
        (n) => n.action === "code" && n.assign === undefined && /^count = count \+ 1/.test(n.instruction ?? ""),
      ),
    ).toBe(true);
    expect(sheetPart(reimport(graph!))).toEqual(sheetPart(graph!));
  });
});

describe("a graph whose code calls the agent's tools", () => {
  const source = `import { Autogram, chat, tryTool } from "@autograms/runtime";
import { lookupOrder } from "./tools.js";

export default class Shop extends Autogram {
  main() {
    const order = lookupOrder("A17");
    const again = tryTool(lookupOrder, "A18");
    chat(\`Tell the user about \${order} and \${again}.\`);
  }
}`;
  const compiled = () => {
    const { graph, diagnostics } = compile(source, { fileName: "shop.ts" });
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    return graph!;
  };

  it("goes graph -> sheet -> graph with its tools given to the import", () => {
    const graph = compiled();
    expect(Object.keys(graph.tools ?? {}).sort()).toEqual(["lookupOrder", "tryTool"]);
    const csv = exportSpreadsheet(graph, AUTOGRAMS);
    const back = importSpreadsheet(csv, { agent: graph.agent, tools: graph.tools });
    expect(back.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(sheetPart(back.graph!)).toEqual(sheetPart(graph));
    expect(back.graph!.tools).toEqual(graph.tools);
    expect(spreadsheetExportLosses(graph)).toContainEqual(
      "the tools table (tryTool, lookupOrder): give them to its import (autograms import --tools @autograms/runtime --tools ./tools.js)",
    );
  });

  it("without them, refuses each call at its cell, saying how to give them", () => {
    const csv = exportSpreadsheet(compiled(), AUTOGRAMS);
    const { graph, diagnostics } = importSpreadsheet(csv, { fileName: "shop.csv" });
    expect(graph).toBeNull();
    const errors = diagnostics.filter((d) => d.severity === "error").map((d) => d.message);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(
      /^row \d+, column \w: the code 'const order = lookupOrder\("A17"\)': 'lookupOrder\(\)' is not a function agent code can call: .*; a sheet names no modules: give the import the tools its code calls \(autograms import --tools MODULE, importSpreadsheet's tools option; given: none\)$/,
    );
  });

  it("reads a module's exported functions as tools, without running it", () => {
    const text = `import { defineTool } from "@autograms/runtime";
export function lookupOrder(id: string) { return id; }
export const refund = defineTool({ description: "Refund." }, (id: string) => id);
const hidden = 1;
function helper() {}
export { helper as assist, type Hidden };
type Hidden = string;
export default function main() {}`;
    expect(moduleTools(text, "tools.ts", "./tools.ts")).toEqual({
      lookupOrder: { module: "./tools.ts", export: "lookupOrder" },
      refund: { module: "./tools.ts", export: "refund" },
      assist: { module: "./tools.ts", export: "assist" },
    });
  });
});
