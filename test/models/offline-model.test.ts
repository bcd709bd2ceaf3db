import { describe, expect, it } from "vitest";
import { OfflineModel } from "../../runtime/src/model/index.js";

const model = new OfflineModel();
const turn = (user: string, instruction: string) =>
  `You are a patient maths tutor.\n\nUser: ${user}\n\n\n\nInstruction for Agent: ${instruction}\nAgent's reply:`;
const complete = (content: string, purpose: "chat" | "thought" | "user" = "chat") =>
  model.complete({ node: "n", purpose, messages: [{ role: "user", content }] });
const classify = (user: string, choices: string[]) =>
  model.choose({ node: "n", choices, prompt: `I need you to solve a multiple choice question.\n\n\nShall we start?\n\nUser: ${user}\n\n\n\nIs the user ready?\n` });

describe("OfflineModel.complete", () => {
  it("says, plainly canned, what it was told to do, after the user's words", async () => {
    expect(await complete(turn("hi, I'm ready", "Give the user this problem: 1/2 + 1/3")))
      .toBe('(offline) You said "hi, I\'m ready". Next I would give the user this problem: 1/2 + 1/3.');
    expect(await complete("Instruction for Agent: Greet the user.\nAgent's reply:")).toBe("(offline) I would greet the user.");
  });

  it("is deterministic", async () => {
    const prompt = turn("what is a fraction?", "Explain fractions simply.");
    expect(await complete(prompt)).toBe(await complete(prompt));
  });

  it("answers a thought that asks for one of some quoted words with one of them", async () => {
    expect(await complete(turn("it is 5/6", 'Problem: 1/2+1/3. Reply "correct" or "wrong" for the last answer.'), "thought")).toBe("correct");
    expect(await complete(turn("I got it wrong", 'Reply "correct" or "wrong".'), "thought")).toBe("wrong");
    expect(await complete(turn("x", "Write one short problem about adding fractions."), "thought"))
      .toBe("(offline) Write one short problem about adding fractions.");
  });

  it("plays a simulated user", async () => {
    expect(await complete("Shall we start?\n\nInstruction for user: Say you are ready\nUser's reply:", "user")).toBe("(offline user) Say you are ready.");
  });

  it("copes with a prompt in no known layout", async () => {
    expect(await complete("just some text")).toBe('(offline) You said "just some text". I have no model to answer with.');
    expect(await model.complete({ node: "n", purpose: "chat", messages: [] })).toBe("(offline) I have no model to answer with.");
  });
});

describe("OfflineModel.choose", () => {
  it("reads yes and no words", async () => {
    expect(await classify("sure, let's go", ["yes", "no"])).toBe(0);
    expect(await classify("no, not yet", ["yes", "no"])).toBe(1);
    expect(await classify("No thanks", ["No", "Yes"])).toBe(0);
  });

  it("picks the answer that shares the most words with the user's text", async () => {
    expect(await classify("can we talk about football instead", ["The user wants to stop.", "The user wants to talk about sports or football.", "None of the above."])).toBe(1);
  });

  it("falls back to None of the above, else the first answer", async () => {
    expect(await classify("hmm", ["The user wants to change the topic.", "None of the above."])).toBe(1);
    expect(await classify("hmm", ["maybe", "perhaps"])).toBe(0);
    expect(await model.choose({ node: "n", prompt: "No user here", choices: ["a", "b"] })).toBe(0);
  });
});
