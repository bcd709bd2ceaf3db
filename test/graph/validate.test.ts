import { describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import { Agent, graphSchema, validateGraph, type Graph } from "@autograms/runtime";
import { nodeNameFindings } from "@autograms/graph";

const base = (): Graph => ({
  format: "autograms-graph",
  version: 1,
  agent: "T",
  globals: {},
  functions: {},
  nodes: [
    {
      name: "ask",
      action: "chat_exact",
      instruction: "Ready?",
      transitions: ["yes_node", "ask"],
      transition_question: "Is the user ready?",
      transition_choices: ["yes", "no"],
    },
    { name: "yes_node", action: "chat", instruction: "Go on.", transitions: ["quit"] },
  ],
});

describe("validateGraph", () => {
  it("checks against a schema that is itself valid JSON Schema (the validator does not check it at run time)", () => {
    const ajv = new Ajv2020({ strict: false });
    expect(ajv.validateSchema(graphSchema), ajv.errorsText(ajv.errors)).toBe(true);
  });

  it("accepts a well-formed graph", () => {
    expect(validateGraph(base())).toMatchObject({ valid: true });
  });

  it("refuses a value that is not a graph, naming what is wrong", () => {
    const r = validateGraph({ format: "autograms-graph", version: 2 });
    expect(r.valid).toBe(false);
    expect(r.errors.map((e) => e.message).join("\n")).toMatch(/version|required/);
  });

  it("finds transitions to missing nodes and mismatched choices", () => {
    const g = base();
    g.nodes[1]!.transitions = ["nowhere"];
    g.nodes[0]!.transition_choices = ["yes"];
    const r = validateGraph(g);
    expect(r.valid).toBe(false);
    const messages = r.errors.map((e) => e.message);
    expect(messages).toContain("node 'yes_node': transition to missing node 'nowhere'");
    expect(messages.some((m) => m.includes("2 transitions but 1 transition_choices"))).toBe(true);
  });

  it("finds duplicate names and unknown actions", () => {
    const g = base() as unknown as { nodes: Record<string, unknown>[] };
    g.nodes.push({ name: "ask", action: "chat_exact", instruction: "x", transitions: ["quit"] });
    expect(validateGraph(g).errors.some((e) => e.message.includes("duplicate node name"))).toBe(true);
    g.nodes[2] = { name: "z", action: "python_function", instruction: "1", transitions: ["quit"] };
    expect(validateGraph(g).valid).toBe(false);
  });
});

describe("nodeNameFindings", () => {
  it("gives each duplicate with its first node and each missing target with its place, names first", () => {
    const nodes = [
      { name: "a", transitions: ["b", "gone", "a.*"] },
      { name: "b", transitions: ["quit"] },
      { name: "a", transitions: ["$next", "lost"] },
    ];
    expect(nodeNameFindings(nodes)).toEqual([
      { rule: "duplicate_name", node: 2, first: 0 },
      { rule: "transition_to_missing_node", node: 0, transition: 1, target: "gone" },
      { rule: "transition_to_missing_node", node: 0, transition: 2, target: "a.*" },
      { rule: "transition_to_missing_node", node: 2, transition: 1, target: "lost" },
    ]);
  });
});

describe("validateGraph: code", () => {
  it("checks every code field with the evaluator's parser: code, conditions, call arguments, return expressions", () => {
    const graph = {
      format: "autograms-graph",
      version: 1,
      agent: "A",
      globals: {},
      functions: { f: { kind: "local_function", params: ["a"], entry: "f" } },
      nodes: [
        { name: "a", action: "transition", boolean_condition: "n >> > 1", transitions: ["b"] },
        { name: "b", action: "code", instruction: "let = 3", transitions: ["c"] },
        { name: "c", action: "local_function", instruction: "f(1 +)", transitions: ["quit"] },
        { name: "f", action: "transition", transitions: ["return a +"] },
      ],
    };
    const result = validateGraph(graph);
    expect(result.valid).toBe(false);
    expect(result.errors.map((e) => [e.path, e.message])).toEqual([
      [
        "/nodes/0/boolean_condition",
        "node 'a': boolean_condition 'n >> > 1' is not code the evaluator runs: unexpected '>' (at 1:6)",
      ],
      [
        "/nodes/1/instruction",
        "node 'b': code 'let = 3' is not code the evaluator runs: unexpected '=', expected a name (at 1:5)",
      ],
      [
        "/nodes/2/instruction",
        expect.stringMatching(/^node 'c': call arguments '\[1 \+\]' is not code the evaluator runs: /),
      ],
      [
        "/nodes/3/transitions/0",
        expect.stringMatching(
          /^node 'f': return expression 'a \+' is not code the evaluator runs: unexpected end of code/,
        ),
      ],
    ]);
    // And new Agent refuses it, every problem listed.
    expect(() => new Agent(graph, { model: { complete: async () => "", choose: async () => 0 } })).toThrow(
      /boolean_condition 'n >> > 1'/,
    );
  });

  it("checks a node's setup, the code it runs on entry, like any other code field", () => {
    const graph = {
      format: "autograms-graph",
      version: 1,
      agent: "A",
      globals: {},
      functions: {},
      nodes: [
        {
          name: "a",
          action: "chat",
          instruction: "Say $_tmp_1",
          setup: "let _tmp_1 = order.join(",
          transitions: ["quit"],
        },
      ],
    };
    const result = validateGraph(graph);
    expect(result.errors.map((e) => [e.path, e.message])).toEqual([
      [
        "/nodes/0/setup",
        expect.stringMatching(/^node 'a': setup 'let _tmp_1 = order.join\(' is not code the evaluator runs: /),
      ],
    ]);
  });
});
