// A thought's answer as data: `thought<T>(instruction, { schema })` compiles to a thought node with
// a `schema` field; the model is asked for JSON (the prompt says so, and the request carries the
// schema for models with structured output), the answer is parsed and checked, asked for again
// with what was wrong, and fails the node with a clear error when it never matches.
import { describe, expect, it } from "vitest";
import { compile, exportSpreadsheet, importSpreadsheet } from "@autograms/compiler";
import {
  Agent,
  AgentError,
  OfflineModel,
  OpenAIModel,
  ScriptedModel,
  defineTool,
  validateGraph,
  type ChatModel,
  type CompletionRequest,
  type Graph,
} from "@autograms/runtime";
import { startOpenAIServer } from "../support/openai-server.js";

const ORDER_SCHEMA = `{
        type: "object",
        properties: { item: { type: "string" }, qty: { type: "integer", minimum: 1 } },
        required: ["item", "qty"],
        additionalProperties: false,
      }`;

const SOURCE = `import { Autogram, chat, chatExact, thought } from "@autograms/runtime";

interface Order { item: string; qty: number }

export default class Shop extends Autogram {
  main() {
    chatExact("What would you like?");
    const order = thought<Order>("Extract the order from the user's message.", {
      schema: ${ORDER_SCHEMA},
    });
    chatExact(\`You ordered \${order.qty} x \${order.item}.\`);
  }
}
`;

function agentWith(model: ChatModel): Agent {
  const { graph, diagnostics } = compile(SOURCE, { fileName: "shop.ts" });
  expect(diagnostics).toEqual([]);
  return new Agent(graph!, { model });
}

/** The one completion request of the extracting thought, from a scripted model's calls. */
const completions = (model: ScriptedModel) =>
  model.calls.filter((c) => c.kind === "complete").map((c) => c.request as CompletionRequest);

async function order(model: ChatModel) {
  const agent = agentWith(model);
  const first = await agent.reply("");
  return agent.reply("Two lemonades, please.", first.memory);
}

describe("thought<T>(..., { schema })", () => {
  it("compiles to a thought node that carries the schema as written", () => {
    const { graph } = compile(SOURCE, { fileName: "shop.ts" });
    const node = graph!.nodes.find((n) => n.action === "thought")!;
    expect(node.schema).toEqual({
      type: "object",
      properties: { item: { type: "string" }, qty: { type: "integer", minimum: 1 } },
      required: ["item", "qty"],
      additionalProperties: false,
    });
    expect(validateGraph(graph).errors).toEqual([]);
  });

  it("gives the parsed value to the code, and asks the model for JSON of the schema", async () => {
    const model = new ScriptedModel({ complete: ['{"item": "lemonade", "qty": 2}'] });
    const { reply, memory } = await order(model);
    expect(reply).toBe("You ordered 2 x lemonade.");
    const [request] = completions(model);
    expect(request!.schema).toMatchObject({ type: "object", required: ["item", "qty"] });
    expect(request!.purpose).toBe("thought");
    const prompt = request!.messages.at(-1)!.content;
    expect(prompt).toContain("Extract the order from the user's message.");
    expect(prompt).toContain("Answer with JSON only, no other text, matching this JSON Schema:");
    expect(prompt).toContain('"required":["item","qty"]');
    // Memory stays plain JSON: the value resumes as it was.
    expect(JSON.parse(JSON.stringify(memory))).toEqual(memory);
  });

  it("takes an answer in a Markdown code fence", async () => {
    const model = new ScriptedModel({ complete: ['```json\n{"item": "tea", "qty": 1}\n```'] });
    expect((await order(model)).reply).toBe("You ordered 1 x tea.");
  });

  it("asks again with what was wrong when an answer does not match", async () => {
    const model = new ScriptedModel({ complete: ['{"item": "tea", "qty": 0}', '{"item": "tea", "qty": 3}'] });
    expect((await order(model)).reply).toBe("You ordered 3 x tea.");
    const [, again] = completions(model);
    expect(again!.messages.slice(-2)).toEqual([
      { role: "assistant", content: '{"item": "tea", "qty": 0}' },
      {
        role: "user",
        content:
          "That answer does not match the JSON Schema (/qty must be >= 1). Answer again with JSON only, matching the schema.",
      },
    ]);
    expect(again!.schema).toBeDefined();
  });

  it("fails the node at its source line when no answer matches", async () => {
    const model = new ScriptedModel({ complete: ["Two lemonades!", '{"item": "tea"}'] });
    const err = await order(model).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AgentError);
    const e = err as AgentError;
    expect(e.code).toBe("invalid_output");
    expect(e.location).toBe("shop.ts:8:19");
    expect(e.message).toMatch(
      /does not match the node's schema after 2 attempts \(must have required property 'qty'\); its last answer: "\{\\"item\\": \\"tea\\"\}"/,
    );
  });

  it("with native tools, asks an OpenAI-compatible server for the schema as the response format beside the tools", async () => {
    const source = SOURCE.replace(
      'import { Autogram, chat, chatExact, thought } from "@autograms/runtime";',
      'import { Autogram, chat, chatExact, thought } from "@autograms/runtime";\nimport { stock } from "./tools.js";',
    ).replace(`schema: ${ORDER_SCHEMA},`, `schema: ${ORDER_SCHEMA},\n      tools: [stock],`);
    expect(source).toContain("tools: [stock]");
    const { graph, diagnostics } = compile(source, { fileName: "shop.ts" });
    expect(diagnostics).toEqual([]);
    const stock = defineTool({
      name: "stock",
      description: "How many of an item are in stock.",
      parameters: { type: "object", properties: { item: { type: "string" } }, required: ["item"] },
      run: () => 5,
    });
    const server = await startOpenAIServer();
    try {
      server.enqueue(
        { toolCalls: [{ id: "c1", name: "stock", arguments: { item: "lemonade" } }] },
        { text: '{"item": "lemonade", "qty": 2}' },
      );
      const model = new OpenAIModel({ model: "m", baseURL: server.baseURL, apiKey: "k", maxRetries: 0 });
      const agent = new Agent(graph!, { model, tools: { stock } });
      const first = await agent.reply("");
      expect((await agent.reply("Two lemonades, please.", first.memory)).reply).toBe("You ordered 2 x lemonade.");
      const bodies = server.completions.map((c) => c.body);
      expect(bodies).toHaveLength(2);
      for (const body of bodies) {
        expect(body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(["stock"]);
        expect(body.response_format).toMatchObject({
          type: "json_schema",
          json_schema: { name: "answer", schema: { required: ["item", "qty"] }, strict: false },
        });
      }
    } finally {
      await server.close();
    }
  });

  it("runs offline: the offline model answers with a value the schema takes", async () => {
    const { reply } = await order(new OfflineModel());
    expect(reply).toBe("You ordered 1 x (offline).");
  });
});

describe("the schema field, checked", () => {
  const compiled = (call: string) =>
    compile(
      `import { Autogram, chat, thought, exec_node } from "@autograms/runtime";
export default class A extends Autogram {
  main() {
    ${call}
  }
}
`,
      { fileName: "a.ts" },
    ).diagnostics.map((d) => `${d.line}:${d.column} ${d.code}: ${d.message}`);

  it("belongs to thought nodes only", () => {
    expect(compiled(`chat("Hi.", { schema: { type: "object" } });`)).toEqual([
      "4:27 invalid_field_value: 'schema' gives the answer of a thought node as data, not of a chat node",
    ]);
  });

  it("must be a JSON Schema, written as a literal", () => {
    expect(compiled(`const x = thought("Hi.", { schema: { type: "objet" } });`)).toEqual([
      expect.stringMatching(/^4:40 invalid_field_value: 'schema' is not a JSON Schema: schema is invalid: data\/type/),
    ]);
    expect(compiled(`const x = thought("Hi.", { schema: "object" });`)).toEqual([
      "4:40 invalid_field_value: 'schema' must be an object",
    ]);
    expect(compiled(`const s = {}; const x = thought("Hi.", { schema: s });`)[0]).toMatch(/non_literal_field/);
  });

  it("is refused by validateGraph on other nodes and when it is no schema", () => {
    const graph = (node: object): Graph =>
      ({
        format: "autograms-graph",
        version: 1,
        agent: "A",
        globals: {},
        functions: {},
        nodes: [{ name: "n", instruction: "Hi.", transitions: ["quit"], ...node }],
      }) as Graph;
    expect(validateGraph(graph({ action: "chat", schema: { type: "object" } })).errors.map((e) => e.message)).toEqual([
      "node 'n': only thought nodes answer with data matching a schema, not chat",
    ]);
    expect(validateGraph(graph({ action: "thought", schema: { type: "objet" } })).errors.map((e) => e.message)).toEqual(
      [expect.stringMatching(/^node 'n': schema is not a JSON Schema: schema is invalid/)],
    );
    expect(validateGraph(graph({ action: "thought", schema: ["object"] })).valid).toBe(false);
  });
});

describe("the schema in spreadsheets", () => {
  const { graph } = compile(SOURCE, { fileName: "shop.ts" });

  it("is a column of this format's sheets, read back as it was", () => {
    const back = importSpreadsheet(exportSpreadsheet(graph!, { format: "autograms" }));
    expect(back.diagnostics).toEqual([]);
    const thought = (g: Graph) => g.nodes.find((n) => n.action === "thought")!;
    expect(thought(back.graph!).schema).toEqual(thought(graph!).schema);
  });

  it("is refused by the original's format, which has no such column", () => {
    expect(() => exportSpreadsheet(graph!)).toThrow(/schema/);
  });

  it("must be a JSON object in a sheet", () => {
    const sheet = 'action,name,transitions,instruction,schema\nthought,n,quit,Hi.,"{""type"": ""object"""\n';
    expect(importSpreadsheet(sheet).diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual([
      `2:${"thought,n,quit,Hi.,".length + 1} row 2, column E: schema must be a JSON object, not '{"type": "object"'`,
    ]);
  });
});
