import { describe, expect, it } from "vitest";
import { Agent, AgentError, ModelError, type Graph, type GraphNode } from "@autograms/runtime";
import { TestModel, graph, loc, n } from "./helpers.js";

const located = (nodes: GraphNode[], extra: Partial<Graph> = {}) =>
  graph(nodes, { source: { file: "src/agent.ts", sha256: "a".repeat(64) }, ...extra });

async function failure(promise: Promise<unknown>): Promise<AgentError> {
  const e = await promise.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(AgentError);
  return e as AgentError;
}

describe("errors name the node and its file:line:column", () => {
  it("a sandbox error in a code node", async () => {
    const g = located([n({ name: "boom", action: "code", instruction: "missing.value + 1", loc: loc(7, 3) })]);
    const e = await failure(new Agent(g, { model: new TestModel() }).reply(""));
    expect(e).toMatchObject({
      code: "sandbox",
      node: "boom",
      file: "src/agent.ts",
      line: 7,
      column: 3,
      location: "src/agent.ts:7:3",
    });
    expect(e.message).toMatch(/^src\/agent\.ts:7:3: node 'boom': code `missing\.value \+ 1` failed: /);
    expect(e.cause).toBeDefined();
  });

  it("a sandbox limit, with the limit named", async () => {
    const g = located([n({ name: "grow", action: "code", instruction: "let s = 'abcdef' + 'ghijkl'", loc: loc(4) })]);
    const e = await failure(new Agent(g, { model: new TestModel(), limits: { maxStringLength: 10 } }).reply(""));
    expect(e).toMatchObject({ code: "sandbox", node: "grow", location: "src/agent.ts:4:5" });
    expect(e.message).toMatch(/\[limit maxStringLength\]/);
  });

  it("an undefined variable in an instruction", async () => {
    const g = located([n({ name: "say", action: "chat_exact", instruction: "Hi $who and $whom", loc: loc(9) })]);
    const e = await failure(new Agent(g, { model: new TestModel() }).reply(""));
    expect(e.message).toBe("src/agent.ts:9:5: node 'say': instruction uses undefined variables $who, $whom");
  });

  it("a failing condition names the candidate node holding it", async () => {
    const g = located([
      n({ name: "go", action: "transition", transitions: ["b.*"], loc: loc(2) }),
      n({ name: "b.a", action: "transition", boolean_condition: "nope()", transitions: ["quit"], loc: loc(3) }),
    ]);
    expect(await failure(new Agent(g, { model: new TestModel() }).reply(""))).toMatchObject({ node: "b.a", line: 3 });
  });

  it("a model that keeps failing, after the configured retries", async () => {
    let calls = 0;
    const model = new TestModel(() => {
      calls++;
      throw new Error("HTTP 503");
    });
    const g = located([n({ name: "talk", action: "chat", instruction: "Hi.", loc: loc(5) })]);
    const e = await failure(new Agent(g, { model, config: { modelRetries: 2, retryDelayMs: 1 } }).reply(""));
    expect(calls).toBe(3);
    expect(e.message).toBe(
      "src/agent.ts:5:5: node 'talk': the model failed to generate text after 3 attempts: HTTP 503",
    );
  });

  it("a model answering an impossible choice", async () => {
    const g = located([
      n({
        name: "q",
        action: "chat_exact",
        instruction: "?",
        transitions: ["q", "q"],
        transition_question: "?",
        transition_choices: ["a", "b"],
        loc: loc(8),
      }),
    ]);
    const agent = new Agent(g, { model: new TestModel(undefined, () => 7), config: { modelRetries: 0 } });
    const e = await failure(agent.reply("x", (await agent.reply("")).memory));
    expect(e.message).toMatch(
      /^src\/agent\.ts:8:5: node 'q': the model failed to choose after 1 attempt: choose\(\) returned 7/,
    );
  });

  it("nodes without loc say so", async () => {
    const g = graph([n({ name: "say", action: "chat_exact", instruction: "$nobody" })]);
    const e = await failure(new Agent(g, { model: new TestModel() }).reply(""));
    expect(e.message).toBe("node 'say' (no source location): instruction uses undefined variable $nobody");
    expect(e.location).toBeUndefined();
  });

  it("a $var transition to a node that does not exist", async () => {
    const g = located([
      n({ name: "jump", action: "code", instruction: "let to = 'nowhere'", transitions: ["$to"], loc: loc(6) }),
    ]);
    const e = await failure(new Agent(g, { model: new TestModel() }).reply(""));
    expect(e).toMatchObject({ code: "bad_transition", location: "src/agent.ts:6:5" });
    expect(e.message).toMatch(/leads to 'nowhere', which is not a node/);
  });
});

describe("graphs are checked when the agent is made", () => {
  it("refuses an invalid graph, listing every problem with its location", async () => {
    const g = located([
      n({ name: "a", action: "chat_exact", instruction: "x", transitions: ["gone"], loc: loc(3) }),
      n({ name: "b", action: "chat_exact", instruction: "y", transitions: ["a", "a"], loc: loc(4) }),
    ]);
    const e = (() => {
      try {
        new Agent(g, { model: new TestModel() });
      } catch (x) {
        return x as AgentError;
      }
    })()!;
    expect(e).toBeInstanceOf(AgentError);
    expect(e.code).toBe("invalid_graph");
    expect(e.message).toContain("src/agent.ts:3:5: node 'a': transition to missing node 'gone'");
    expect(e.message).toContain("src/agent.ts:4:5: node 'b': has 2 transitions but 0 transition_choices");
  });

  it("refuses calls to unknown functions or of the wrong kind, and bad templates", () => {
    const make = (nodes: GraphNode[]) => () =>
      new Agent(
        located(nodes, {
          functions: { f: { kind: "function", params: [], entry: "f" } },
        }),
        { model: new TestModel() },
      );
    const f = n({ name: "f", action: "transition", transitions: ["return"] });
    expect(make([n({ name: "c", action: "function", instruction: "g()", loc: loc(2) }), f])).toThrow(
      "src/agent.ts:2:5: node 'c': calls 'g', which is not in the graph's functions",
    );
    expect(make([n({ name: "c", action: "local_function", instruction: "f()", loc: loc(2) }), f])).toThrow(
      "calls 'f' as local_function, but it is a function",
    );
    expect(make([n({ name: "c", action: "function", instruction: "f", loc: loc(2) }), f])).toThrow(
      "is not a call 'name(arg, …)'",
    );
    expect(make([n({ name: "c", action: "chat", instruction: "Costs ?{ $x", loc: loc(2) }), f])).toThrow(
      "src/agent.ts:2:5: node 'c': instruction: '?{' without its closing '}' (at character 7)",
    );
  });

  it("refuses a graph whose tools have no implementation", () => {
    const g = located([n({ name: "a", action: "code", instruction: "lookup('x')" })], {
      tools: { lookup: { module: "./tools.js", export: "lookup" } },
    });
    expect(() => new Agent(g, { model: new TestModel() })).toThrow(
      /tool 'lookup' \(export 'lookup' of '\.\/tools\.js'\), but no implementation/,
    );
  });

  it("needs a model", () => {
    expect(() => new Agent(graph([n({ name: "a", action: "chat_exact", instruction: "x" })]), {} as never)).toThrow(
      /needs a model/,
    );
  });
});

describe("model errors that are final already", () => {
  it("fails at once on a ModelError, naming the cause once, without retrying on top of the client", async () => {
    let calls = 0;
    const model = {
      complete: async () => {
        calls++;
        throw new ModelError("talk", "http", "the server answered 400 Bad Request: no (1 attempt)", 400);
      },
      choose: async () => 0,
    };
    const g = located([
      {
        name: "talk",
        action: "chat",
        instruction: "Hi.",
        transitions: ["quit"],
        loc: { line: 5, column: 5, endLine: 5, endColumn: 20 },
      },
    ]);
    const e = await failure(new Agent(g, { model, config: { modelRetries: 2, retryDelayMs: 1 } }).reply(""));
    expect(calls).toBe(1);
    expect(e.message).toBe(
      "src/agent.ts:5:5: node 'talk': the model failed to generate text: the server answered 400 Bad Request: no (1 attempt)",
    );
  });
});
