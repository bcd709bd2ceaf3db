/**
 * The graph's vocabulary is written once (graph/src/vocabulary/); the JSON Schema, the
 * node types, the agent language's types, the compiler's checks and the spreadsheet's columns are
 * derived from it. These tests fail when a derivation and the vocabulary disagree, so a field or
 * an action added to the vocabulary is checked everywhere it must appear.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import * as runtime from "@autograms/runtime";
import {
  ACTION_SPECS,
  ACTIONS,
  BASE_ACTIONS,
  DECORATOR_KINDS,
  FIELDS,
  MODEL_ACTIONS,
  NODE_FIELD_NAMES,
  SHORTHAND_ACTIONS,
  candidateLetters,
  candidateName,
  candidateOf,
  candidates,
  graphSchema,
  isSpecialTarget,
  parseTarget,
  targetExists,
  validateGraph,
  type Graph,
  type ValueKind,
} from "@autograms/runtime";
import { compile, exportSpreadsheet, importSpreadsheet } from "@autograms/compiler";
import { WRITTEN_FIELDS } from "../../compiler/src/phases/2-analyze/expressions/node-fields.js";
import { columnFor, exportColumns, FIELD_COLUMN_NAMES, LETTERED } from "../../compiler/src/spreadsheet/columns.js";

const doc = (name: string) => readFileSync(new URL(`../../docs/${name}`, import.meta.url), "utf8");
/** The snake_case names written in backquotes in `text`. */
const quotedNames = (text: string) => [...text.matchAll(/`([a-z][a-z_]*)`/g)].map((m) => m[1]!);

/** A value of each kind the schema must take, and one it must refuse. */
const SAMPLES: Record<ValueKind, { good: unknown; bad: unknown }> = {
  name: { good: "n", bad: "" },
  action: { good: "chat", bad: 5 },
  text: { good: "some text", bad: 3 },
  code: { good: "count + 1", bad: ["count"] },
  variable: { good: "answer", bad: "1answer" },
  targets: { good: ["n"], bad: [] },
  nodes: { good: ["n"], bad: "n" },
  texts: { good: ["yes"], bad: [1] },
  numbers: { good: [0.5], bad: [-1] },
  indices: { good: [0], bad: [0, 0] },
  count: { good: 2, bad: 1.5 },
  probability: { good: 0.25, bad: 2 },
  tools: { good: ["lookup"], bad: ["lookup", "lookup"] },
  loc: {
    good: { line: 1, column: 1, endLine: 1, endColumn: 2 },
    bad: { line: 0, column: 1, endLine: 1, endColumn: 2 },
  },
  json_schema: { good: { type: "object", required: ["id"] }, bad: ["object"] },
  text_map: { good: { instruction: "len(xs)" }, bad: { instruction: 1 } },
};

/** A one-node graph (a thought node that offers a tool) with `field` set to `value`. */
function graphWith(field: string, value: unknown): Graph {
  const node = { name: "n", action: "thought", instruction: "Hello.", transitions: ["n"], [field]: value };
  return {
    format: "autograms-graph",
    version: 1,
    agent: "A",
    globals: {},
    functions: {},
    tools: { lookup: { module: "./tools.js", export: "lookup" } },
    nodes: [node as Graph["nodes"][number]],
  };
}

const nodeSchema = graphSchema.properties.nodes.items;

describe("the vocabulary and the JSON Schema", () => {
  it("has exactly the vocabulary's node fields, the required ones required", () => {
    expect(Object.keys(nodeSchema.properties).sort()).toEqual(FIELDS.map((f) => f.name).sort());
    expect([...nodeSchema.required].sort()).toEqual(
      FIELDS.filter((f) => f.required)
        .map((f) => f.name)
        .sort(),
    );
    expect([...NODE_FIELD_NAMES].sort()).toEqual(FIELDS.map((f) => f.name).sort());
  });

  it.each(FIELDS.map((f) => [f.name, f.value] as const))(
    "takes a %s of its kind (%s) and refuses another value",
    (field, kind) => {
      expect(validateGraph(graphWith(field, SAMPLES[kind].good)).errors).toEqual([]);
      const refused = validateGraph(graphWith(field, SAMPLES[kind].bad));
      expect(refused.valid).toBe(false);
      expect(refused.errors.map((e) => e.path)).toContainEqual(
        expect.stringMatching(new RegExp(`^/nodes/0/${field}(/|$)`)),
      );
    },
  );

  it("lists the vocabulary's actions, bases and function kinds", () => {
    const builtin = graphSchema.properties.actions.propertyNames.not.enum;
    expect(builtin).toEqual(ACTIONS);
    expect(graphSchema.properties.actions.additionalProperties.properties.base.enum).toEqual(BASE_ACTIONS);
    expect(graphSchema.properties.functions.additionalProperties.properties.kind.enum).toEqual(
      ACTIONS.filter((a) => ACTION_SPECS[a].family === "call"),
    );
    // Every built-in action is accepted on a node; `tools` only where the model writes the text.
    for (const action of ACTIONS) {
      const g = graphWith("action", action);
      const node = g.nodes[0] as unknown as Record<string, unknown>;
      if (ACTION_SPECS[action].family === "call") continue; // needs a function to call
      if (action === "code") node.instruction = "1";
      node.tools = ["lookup"];
      const messages = validateGraph(g).errors.map((e) => e.message);
      if ((MODEL_ACTIONS as readonly string[]).includes(action)) expect(messages).toEqual([]);
      else
        expect(messages).toEqual([
          `node 'n': only chat, chat_suffix, thought and thought_qa nodes offer tools to the model, not ${action}`,
        ]);
    }
  });
});

/** The properties of a type a module of the runtime exports, each with its type as TypeScript writes it. */
function propertiesOf(program: ts.Program, module: string, name: string): Record<string, string> {
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(module)!;
  const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(file)!).find((s) => s.name === name)!;
  const type = checker.getDeclaredTypeOfSymbol(
    exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported,
  );
  return Object.fromEntries(
    checker.getPropertiesOfType(type).map((p) => {
      const optional = (p.flags & ts.SymbolFlags.Optional) !== 0;
      return [
        p.name,
        `${checker.typeToString(checker.getNonNullableType(checker.getTypeOfSymbol(p)))}${optional ? "?" : ""}`,
      ];
    }),
  );
}

/** The TypeScript type each kind of value has. */
const TYPES: Record<ValueKind, string> = {
  name: "string",
  action: "string",
  text: "string",
  code: "string",
  variable: "string",
  targets: "string[]",
  nodes: "string[]",
  texts: "string[]",
  tools: "string[]",
  numbers: "number[]",
  indices: "number[]",
  count: "number",
  probability: "number",
  loc: "Loc",
  json_schema: "{ [key: string]: JsonValue; }",
  text_map: "Record<string, string>",
};

describe("the vocabulary and the TypeScript types", () => {
  const types = fileURLToPath(new URL("../../graph/src/types.ts", import.meta.url));
  const language = fileURLToPath(new URL("../../runtime/src/language/fields.ts", import.meta.url));
  // The two modules and what they import: the type checker need not read the whole runtime.
  const program = ts.createProgram([types, language], {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
  });

  it("NodeFields has every field whose type does not depend on the action, typed by its kind", () => {
    const expected = Object.fromEntries(
      FIELDS.filter((f) => !f.perAction).map((f) => [f.name, `${TYPES[f.value]}${f.required ? "" : "?"}`]),
    );
    expect(propertiesOf(program, types, "NodeFields")).toEqual(expected);
  });

  it("a model node adds its action, instruction and tools; the agent language's CommonNodeFields has the fields an agent writes", () => {
    expect(propertiesOf(program, types, "ModelNode")).toMatchObject({ instruction: "string", tools: "string[]?" });
    const written = FIELDS.filter((f) => f.language !== false && f.name !== "action" && f.name !== "tools");
    expect(propertiesOf(program, language, "CommonNodeFields")).toEqual(
      Object.fromEntries(written.map((f) => [f.name, `${TYPES[f.value]}?`])),
    );
  });
});

describe("the vocabulary and the agent language", () => {
  it("the compiler reads exactly the fields an agent writes", () => {
    expect(Object.keys(WRITTEN_FIELDS)).toEqual(FIELDS.filter((f) => f.language !== false).map((f) => f.name));
    for (const f of FIELDS) if (f.language === "template") expect(WRITTEN_FIELDS[f.name]).toBe("text");
  });

  it("compiles each field an agent writes into the node, as written", () => {
    const written = FIELDS.filter(
      (f) => f.language !== false && !["name", "action", "instruction", "transitions", "tools"].includes(f.name),
    );
    const literal = (f: (typeof FIELDS)[number]) => JSON.stringify(SAMPLES[f.value].good);
    const source = `import { Autogram, exec_node } from "@autograms/runtime";
export default class A extends Autogram {
  main() {
    const x = exec_node({ action: "thought", name: "n", instruction: "Hello.", transitions: ["quit"],
      ${written.map((f) => `${f.name}: ${literal(f)}`).join(",\n      ")} });
  }
}`;
    const { graph, diagnostics } = compile(source, { fileName: "a.ts" });
    expect(diagnostics).toEqual([]);
    const node = graph!.nodes.find((n) => n.name === "n") as unknown as Record<string, unknown>;
    for (const f of written) expect(node[f.name], f.name).toEqual(JSON.parse(literal(f)));
  });

  it("docs/language.md lists every field exec_node takes", () => {
    const guide = doc("language.md");
    const list = guide.slice(guide.indexOf("takes an object literal"), guide.indexOf("A shorthand's second argument"));
    expect(quotedNames(list).sort()).toEqual(Object.keys(WRITTEN_FIELDS).sort());
  });

  it("has a function of the runtime for each shorthand and decorator", () => {
    for (const name of [...Object.keys(SHORTHAND_ACTIONS), ...Object.keys(DECORATOR_KINDS)]) {
      expect(typeof (runtime as Record<string, unknown>)[name], name).toBe("function");
    }
    expect(Object.values(SHORTHAND_ACTIONS)).toEqual(
      ACTIONS.filter((a) => ["chat", "thought", "prompt"].includes(ACTION_SPECS[a].family)),
    );
  });
});

describe("the vocabulary and the spreadsheet", () => {
  it("has a column for each field the sheet keeps, lettered ones by their prefix", () => {
    for (const f of FIELDS) {
      if (f.sheet === "column") expect(columnFor(f.name), f.name).toMatchObject({ kind: "field", field: f.name });
      else if (f.sheet === false) expect(columnFor(f.name), f.name).toBeUndefined();
      else expect(columnFor(`${f.sheet.lettered}_b`), f.name).toEqual({ kind: "lettered", field: f.name, index: 1 });
    }
    expect([...FIELD_COLUMN_NAMES].sort()).toEqual(
      FIELDS.filter((f) => f.sheet === "column")
        .map((f) => f.name)
        .sort(),
    );
    expect(Object.values(LETTERED).sort()).toEqual(
      FIELDS.filter((f) => typeof f.sheet === "object")
        .map((f) => f.name)
        .sort(),
    );
  });

  it("docs/spreadsheets.md lists every column, in the order the exporter writes them", () => {
    const guide = doc("spreadsheets.md");
    const table = guide.slice(guide.indexOf("| column | node field | cell |"));
    const rows = table.slice(0, table.indexOf("\n\n")).split("\n").slice(2);
    const documented = rows.flatMap((row) => quotedNames(row.split("|")[1]!)).filter((c) => c !== "lineno");
    const lettered = Object.fromEntries(Object.values(LETTERED).map((f) => [f, 1])) as Parameters<
      typeof exportColumns
    >[1];
    expect(documented).toEqual(exportColumns(() => true, lettered).map((c) => c.header));
  });

  it("writes every field the sheet keeps and reads it back", () => {
    const sheetFields = FIELDS.filter(
      (f) => f.sheet !== false && !["name", "action", "transitions", "instruction", "assign"].includes(f.name),
    );
    const node: Record<string, unknown> = {
      name: "n",
      action: "thought",
      assign: "answer",
      instruction: "Hello.",
      transitions: ["n"],
    };
    for (const f of sheetFields) node[f.name] = SAMPLES[f.value].good;
    const graph = {
      format: "autograms-graph",
      version: 1,
      agent: "A",
      globals: {},
      functions: {},
      nodes: [node],
    } as unknown as Graph;
    expect(validateGraph(graph).errors).toEqual([]);
    // Every field: the format that holds any graph (the original's has no column for some).
    const back = importSpreadsheet(exportSpreadsheet(graph, { format: "autograms" }));
    expect(back.diagnostics).toEqual([]);
    const { loc: _loc, ...read } = back.graph!.nodes[0]!;
    expect(read).toEqual(node);
  });
});

describe("the transition-target syntax", () => {
  it("reads each kind of target", () => {
    expect(parseTarget("quit")).toEqual({ kind: "quit" });
    expect(parseTarget("return")).toEqual({ kind: "return" });
    expect(parseTarget("return  ")).toEqual({ kind: "return" });
    expect(parseTarget("return a + 1 ")).toEqual({ kind: "return", expr: "a + 1" });
    expect(parseTarget("returned")).toEqual({ kind: "node", name: "returned" });
    expect(parseTarget("$next_step")).toEqual({ kind: "variable", variable: "next_step" });
    expect(parseTarget("$x.*")).toEqual({ kind: "variable", variable: "x.*" });
    expect(parseTarget("main.if_1.*")).toEqual({ kind: "lettered", base: "main.if_1" });
    expect(parseTarget("ask.n")).toEqual({ kind: "numbered", base: "ask" });
    expect(parseTarget("quitting")).toEqual({ kind: "node", name: "quitting" });
    expect(["next", "quit", "return x", "$v", "a.*", "a.n"].every(isSpecialTarget)).toBe(true);
    expect(isSpecialTarget("a.b")).toBe(false);
  });

  it("names candidates a ... z, aa, ab, ... and 1, 2, ..., and reads the names back", () => {
    expect([0, 1, 25, 26, 27, 51, 52, 701, 702].map(candidateLetters)).toEqual([
      "a",
      "b",
      "z",
      "aa",
      "ab",
      "az",
      "ba",
      "zz",
      "aaa",
    ]);
    for (let i = 0; i < 800; i++) {
      expect(candidateOf("lettered", candidateName("lettered", "x.y", i))).toEqual({ base: "x.y", index: i });
      expect(candidateOf("numbered", candidateName("numbered", "x", i))).toEqual({ base: "x", index: i });
    }
    expect(candidateOf("numbered", "x.0")).toBeUndefined();
    expect(candidateOf("lettered", "x.A")).toBeUndefined();
    const names = new Set(["x.a", "x.b", "x.d", "y.1", "y.2"]);
    expect(candidates("lettered", "x", (n) => names.has(n))).toEqual(["x.a", "x.b"]);
    expect(candidates("numbered", "y", (n) => names.has(n))).toEqual(["y.1", "y.2"]);
    expect(["x.*", "y.n", "x.b", "quit", "return 1", "$v"].every((t) => targetExists(t, (n) => names.has(n)))).toBe(
      true,
    );
    expect(["y.*", "x.n", "x.c"].some((t) => targetExists(t, (n) => names.has(n)))).toBe(false);
  });
});
