import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { formatChoices, ModelError, OpenAIModel, type OpenAIModelOptions } from "../../runtime/src/model/index.js";
import { startOpenAIServer, type OpenAIServer, type OpenAIServerOptions } from "../support/openai-server.js";

let server: OpenAIServer;
afterEach(async () => {
  await server.close();
});
const start = async (options?: OpenAIServerOptions) => {
  server = await startOpenAIServer(options);
};

const modelOn = (options: Partial<OpenAIModelOptions> = {}) =>
  new OpenAIModel({ model: "test-model", baseURL: server.baseURL, apiKey: "k", maxRetries: 0, ...options });

const QUESTION = "I need you to solve a multiple choice question.\n\n\nQ?\n\nUser: hello there\n\n\n\nWhich is true?\n";
const CHOICES = ["x is true", "y is true", "z is true"];
const choose = (model: OpenAIModel, choices = CHOICES) => model.choose({ node: "route", prompt: QUESTION, choices });

describe("choose() by log-probabilities", () => {
  beforeEach(() => start());

  it("asks for one token with its log-probabilities and picks the likeliest label", async () => {
    server.enqueue({ choice: "A", logprob: -1.2, alternatives: { C: -0.4, Sure: -0.1 } });
    expect(await choose(modelOn())).toBe(2);
    const body = server.completions[0]!.body;
    expect(body).toMatchObject({ max_tokens: 1, temperature: 0, logprobs: true, top_logprobs: 20 });
    expect(body.logit_bias).toBeUndefined(); // a model whose tokenizer is unknown gets no bias
    expect(body.messages).toEqual([
      {
        role: "system",
        content:
          "Answer the multiple choice question with the letter of the one correct answer (A, B, C) and nothing else.",
      },
      { role: "user", content: `${QUESTION}A. x is true\nB. y is true\nC. z is true\n` },
    ]);
  });

  it('pools a label\'s spellings ("B", " B") and ignores tokens that are no label', async () => {
    server.enqueue({ choice: "A", logprob: -0.9, alternatives: { " B": -1.0, B: -1.0, The: -0.05 } });
    expect(await choose(modelOn())).toBe(1);
  });

  it("biases the letter tokens of OpenAI's tokenizers for OpenAI models", async () => {
    server.enqueue({ choice: "B" });
    expect(await choose(modelOn({ model: "gpt-4o-mini" }))).toBe(1);
    expect(server.completions[0]!.body.logit_bias).toEqual({ 32: 100, 33: 100, 34: 100 });
  });

  it("takes token ids from a function for other tokenizers", async () => {
    server.enqueue({ choice: "C" });
    await choose(modelOn({ labelTokenIds: (label) => 1000 + label.charCodeAt(0) }));
    expect(server.completions[0]!.body.logit_bias).toEqual({ 1065: 100, 1066: 100, 1067: 100 });
  });

  it("does not repeat the answer list when the question already holds it", async () => {
    server.enqueue({ choice: "A" });
    const prompt = `${QUESTION}${formatChoices(CHOICES)}`;
    await modelOn().choose({ node: "route", prompt, choices: CHOICES });
    expect(server.completions[0]!.body.messages[1].content).toBe(prompt);
  });

  it("falls back to the text, validated, when no label is among the likeliest tokens", async () => {
    server.enqueue(
      { text: "Well", logprobs: [{ token: "Well", logprob: -0.1, top: { Well: -0.1, So: -2 } }] },
      { text: "B" },
    );
    expect(await choose(modelOn({ choiceStrategy: "logprobs" }))).toBe(1);
    expect(server.completions[1]!.body.logprobs).toBeUndefined();
  });
});

describe("choose() by JSON schema", () => {
  beforeEach(() => start());

  it("asks for {answer} with the labels as an enum", async () => {
    server.enqueue({ choice: "C" });
    expect(await choose(modelOn({ choiceStrategy: "json_schema" }))).toBe(2);
    const body = server.completions[0]!.body;
    expect(body.logprobs).toBeUndefined();
    expect(body.response_format).toEqual({
      type: "json_schema",
      json_schema: {
        name: "choice",
        strict: true,
        schema: {
          type: "object",
          properties: { answer: { type: "string", enum: ["A", "B", "C"] } },
          required: ["answer"],
          additionalProperties: false,
        },
      },
    });
  });

  it("numbers the answers beyond 26 and lists them all", async () => {
    const many = Array.from({ length: 30 }, (_, i) => `option ${i + 1}`);
    server.enqueue({ choice: "27" });
    expect(await choose(modelOn(), many)).toBe(26);
    const body = server.completions[0]!.body;
    // Numbers may span several tokens, so the log-probability strategy steps aside for them.
    expect(body.logprobs).toBeUndefined();
    expect(body.response_format.json_schema.schema.properties.answer.enum).toEqual(many.map((_, i) => String(i + 1)));
    expect(body.messages[1].content).toContain("\n26. option 26\n27. option 27\n");
    expect(body.messages[0].content).toContain("the number of the one correct answer (1 to 30)");
  });

  it("falls back to the text when the answer is not one of the labels", async () => {
    server.enqueue({ text: '{"answer": "D"}' }, { text: "The answer is C." });
    expect(await choose(modelOn({ choiceStrategy: "json_schema" }))).toBe(2);
  });
});

describe("choose() on servers that lack a strategy", () => {
  it("moves from log-probabilities to the JSON schema, and remembers", async () => {
    await start({ unsupported: ["logprobs"] });
    server.enqueue({ choice: "B" }, { choice: "A" });
    const model = modelOn();
    expect(await choose(model)).toBe(1);
    expect(await choose(model)).toBe(0);
    expect(
      server.completions.map((r) => (r.body.logprobs ? "logprobs" : r.body.response_format ? "json_schema" : "text")),
    ).toEqual(["logprobs", "json_schema", "json_schema"]);
  });

  it("notices a server that ignores logprobs", async () => {
    await start();
    server.enqueue({ text: "B" }, { choice: "B" }, { choice: "C" });
    const model = modelOn();
    expect(await choose(model)).toBe(1);
    expect(await choose(model)).toBe(2);
    expect(server.completions.map((r) => Boolean(r.body.logprobs))).toEqual([true, false, false]);
  });

  it("ends with the text when both are refused, and drops a refused temperature", async () => {
    await start({ unsupported: ["logprobs", "response_format", "temperature"] });
    server.enqueue({ text: "(B)" });
    expect(await choose(modelOn())).toBe(1);
    const last = server.completions.at(-1)!.body;
    expect(last.temperature).toBeUndefined();
    expect(last.messages[1].content).toContain("B. y is true");
  });

  it("refuses a free-text answer that names no answer plainly", async () => {
    await start({ unsupported: ["logprobs", "response_format"] });
    server.enqueue({ text: "I think y is probably true" });
    const err = await choose(modelOn()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect((err as ModelError).message).toBe(
      "node 'route': model call failed: no valid answer among 3 choices (logprobs: the server answered 400 Bad Request: " +
        "Unsupported parameter: 'logprobs' is not supported with this model.; json_schema: the server answered 400 Bad Request: " +
        "Unsupported parameter: 'response_format' is not supported with this model.; " +
        'text: the answer "I think y is probably true" names none of A, B, C)',
    );
  });

  it("does not fall back past a server error", async () => {
    await start();
    server.enqueue({ status: 503, message: "overloaded" });
    const err = await choose(modelOn()).catch((e: unknown) => e);
    expect((err as ModelError).message).toBe(
      "node 'route': model call failed: the server answered 503 Service Unavailable: overloaded",
    );
    expect(server.completions).toHaveLength(1);
  });
});

describe("choose() without a question to ask", () => {
  beforeEach(() => start());

  it("answers a single choice without a request and refuses none", async () => {
    expect(await modelOn().choose({ node: "n", prompt: "Q?", choices: ["only"] })).toBe(0);
    expect(server.completions).toHaveLength(0);
    await expect(modelOn().choose({ node: "n", prompt: "Q?", choices: [] })).rejects.toThrow(
      "node 'n': model call failed: there are no choices to choose from",
    );
  });
});
