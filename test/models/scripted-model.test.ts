import { describe, expect, it } from "vitest";
import { isToolCallingModel, ModelError, ScriptedModel } from "../../runtime/src/model/index.js";

const ask = (m: ScriptedModel, content: string, node = "n") =>
  m.complete({ node, purpose: "chat", messages: [{ role: "user", content }] });

describe("ScriptedModel", () => {
  it("answers from its lists in order and records every request with its answer", async () => {
    const m = new ScriptedModel({
      complete: ["one", (req) => `echo ${req.messages[0]!.content}`],
      choose: [1, "B", "no", (req) => req.choices.length - 1],
    });
    expect(await ask(m, "a")).toBe("one");
    expect(await ask(m, "b")).toBe("echo b");
    const choices = ["yes", "no", "maybe"];
    const picks = [];
    for (let i = 0; i < 4; i++) picks.push(await m.choose({ node: "q", prompt: "?", choices }));
    expect(picks).toEqual([1, 1, 1, 2]);
    expect(m.calls.map((c) => [c.kind, c.answer])).toEqual([
      ["complete", "one"],
      ["complete", "echo b"],
      ["choose", 1],
      ["choose", 1],
      ["choose", 1],
      ["choose", 2],
    ]);
    expect(m.calls[1]!.request).toEqual({ node: "n", purpose: "chat", messages: [{ role: "user", content: "b" }] });
    expect(m.remaining).toEqual({ complete: 0, choose: 0, tools: 0 });
  });

  it("streams an answer in the pieces its script gives, to a request with onText", async () => {
    const m = new ScriptedModel({
      complete: [["Hel", "", "lo"], "whole", [3 as never]],
      tools: [{ text: ["a", "b"], toolCalls: [{ name: "t", arguments: {} }] }],
    });
    const pieces: string[] = [];
    const onText = (p: string) => void pieces.push(p);
    expect(await m.complete({ node: "n", purpose: "chat", messages: [], onText })).toBe("Hello");
    expect(await m.complete({ node: "n", purpose: "chat", messages: [], onText })).toBe("whole");
    expect(pieces).toEqual(["Hel", "lo", "whole"]);
    await expect(ask(m, "x")).rejects.toThrow(
      "node 'n': model call failed: a scripted complete() answer must be a string or an array of strings, not [3]",
    );
    const answer = await m.completeWithTools({ node: "n", messages: [], tools: [], onText });
    expect(answer).toEqual({
      text: "ab",
      toolCalls: [{ id: "call_0", name: "t", arguments: "{}" }],
      finishReason: "tool_calls",
    });
    expect(pieces.slice(3)).toEqual(["a", "b"]);
    expect(m.calls.map((c) => [c.kind, c.kind === "tools" ? c.answer?.text : c.answer])).toEqual([
      ["complete", "Hello"],
      ["complete", "whole"],
      ["complete", undefined],
      ["tools", "ab"],
    ]);
  });

  it("keeps what it was asked even if the caller changes it afterwards", async () => {
    const m = new ScriptedModel({ complete: ["x"] });
    const messages = [{ role: "user" as const, content: "original" }];
    await m.complete({ node: "n", purpose: "chat", messages });
    messages[0]!.content = "changed";
    messages.push({ role: "user", content: "more" });
    expect(m.calls[0]!.request).toMatchObject({ messages: [{ role: "user", content: "original" }] });
  });

  it("answers every request through a handler", async () => {
    const m = new ScriptedModel({ complete: (req) => req.node.toUpperCase(), choose: () => 0 });
    expect(await ask(m, "x", "greet")).toBe("GREET");
    expect(await ask(m, "y", "bye")).toBe("BYE");
    expect(m.remaining.complete).toBe(Infinity);
  });

  it("says clearly when the script runs out", async () => {
    const m = new ScriptedModel({ complete: ["only"] });
    await ask(m, "first");
    const err = await ask(m, "What   is\nnext?", "ask_more").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect((err as ModelError).message).toBe(
      `node 'ask_more': model call failed: the script has no complete answer left (it had 1) for request #2: last user message "What is next?"`,
    );
    await expect(m.choose({ node: "q", prompt: "?", choices: ["a", "b"] })).rejects.toThrow(
      `node 'q': model call failed: the script has no choose answer left (it had 0) for request #3: choices ["a","b"]`,
    );
  });

  it("refuses a scripted choice that is none of the choices", async () => {
    const m = new ScriptedModel({ choose: [5, "D", "perhaps"] });
    for (const _ of [1, 2, 3]) {
      await expect(m.choose({ node: "q", prompt: "?", choices: ["yes", "no", "maybe"] })).rejects.toThrow(
        /is none of the choices \["yes","no","maybe"\]/,
      );
    }
  });

  it("scripts native tool calls, streaming the text", async () => {
    const m = new ScriptedModel({
      tools: [{ toolCalls: [{ name: "calculator", arguments: { expression: "6*7" } }] }, "It is 42."],
    });
    expect(isToolCallingModel(m)).toBe(true);
    const req = {
      node: "solve",
      messages: [{ role: "user" as const, content: "6*7?" }],
      tools: [{ name: "calculator" }],
    };
    expect(await m.completeWithTools(req)).toEqual({
      text: "",
      finishReason: "tool_calls",
      toolCalls: [{ id: "call_0", name: "calculator", arguments: '{"expression":"6*7"}' }],
    });
    const streamed: string[] = [];
    expect((await m.completeWithTools({ ...req, stream: true, onText: (t) => streamed.push(t) })).text).toBe(
      "It is 42.",
    );
    expect(streamed).toEqual(["It is 42."]);
  });
});
