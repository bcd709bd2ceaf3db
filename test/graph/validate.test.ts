import { describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import { graphSchema, validateGraph, type Graph } from "@autograms/runtime";

const base = (): Graph => ({
  format: "autograms-graph",
  version: 1,
  agent: "T",
  globals: {},
  functions: {},
  nodes: [
    { name: "ask", action: "chat_exact", instruction: "Ready?", transitions: ["yes_node", "ask"],
      transition_question: "Is the user ready?", transition_choices: ["yes", "no"] },
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
