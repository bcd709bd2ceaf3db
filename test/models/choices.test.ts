import { describe, expect, it } from "vitest";
import { choiceLabels, formatChoices, promptWithChoices, readChoiceAnswer } from "../../runtime/src/model/index.js";

describe("answer labels", () => {
  it("are letters up to 26 answers and numbers beyond", () => {
    expect(choiceLabels(3)).toEqual(["A", "B", "C"]);
    expect(choiceLabels(26).at(-1)).toBe("Z");
    expect(choiceLabels(27)).toEqual(Array.from({ length: 27 }, (_, i) => String(i + 1)));
  });

  it("list the answers as the classifier question shows them", () => {
    expect(formatChoices(["x is true", "y is true"])).toBe("A. x is true\nB. y is true\n");
    expect(promptWithChoices("Which is true?", ["x", "y"])).toBe("Which is true?\nA. x\nB. y\n");
    expect(promptWithChoices("Which is true?\nA. x\nB. y\n", ["x", "y"])).toBe("Which is true?\nA. x\nB. y\n");
  });
});

describe("readChoiceAnswer", () => {
  const three = ["x is true", "y is true", "z is true"];
  it.each([
    ["B", 1],
    [" b ", 1],
    ["(C)", 2],
    ["**A**", 0],
    ["B.", 1],
    ["C) z is true", 2],
    ["A: because", 0],
    ['{"answer": "B"}', 1],
    ["Answer: C", 2],
    ["The answer is B.", 1],
    ["the correct answer is (A)", 0],
    ["y is true.", 1],
  ])("reads %j as answer %i", (reply, index) => {
    expect(readChoiceAnswer(reply, three)).toBe(index);
  });

  it.each(["I think B", "D", "a cat", "", "maybe", '{"answer": "Q"}', "{not json}", "Because A is"])(
    "guesses nothing from %j",
    (reply) => {
      expect(readChoiceAnswer(reply, three)).toBeUndefined();
    },
  );

  it("reads numbered answers whole", () => {
    const many = Array.from({ length: 30 }, (_, i) => `option ${i + 1}`);
    expect(readChoiceAnswer("27", many)).toBe(26);
    expect(readChoiceAnswer("27.", many)).toBe(26);
    expect(readChoiceAnswer("Answer: 3", many)).toBe(2);
    expect(readChoiceAnswer("31", many)).toBeUndefined();
  });
});
