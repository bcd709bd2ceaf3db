import { describe, expect, it } from "vitest";
import { plainText } from "../../cli/src/terminal/plain-text.js";

describe("plainText", () => {
  it("removes every kind of terminal control sequence and control character, keeping text, line feeds and tabs", () => {
    const cases: [string, string][] = [
      ["\x1b[31mred\x1b[0m", "red"],
      ["\x1b[1;2;3;4Hmoved", "moved"],
      ["\x1b]0;title\x07after", "after"],
      ["\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\", "link"],
      ["\x1bP+q544e\x1b\\dcs", "dcs"],
      ["\x1b_apc\x9c.", "."],
      ["\x9b2Jc1 csi", "c1 csi"],
      ["\x9d0;t\x07c1 osc", "c1 osc"],
      ["\x1bcreset", "reset"],
      ["\x1b(Bcharset", "charset"],
      ["a\rb\bc\x00d\x7fe\x0bf\x0cg", "abcdefg"],
      ["keep\tthe\ttabs\nand lines\n", "keep\tthe\ttabs\nand lines\n"],
      ["unterminated \x1b]0;title", "unterminated "],
      ["trailing \x1b", "trailing "],
      ["émoji 😀 and 中文", "émoji 😀 and 中文"],
    ];
    for (const [input, expected] of cases) expect(plainText(input), JSON.stringify(input)).toBe(expected);
  });

  it("leaves no control character in any input", () => {
    let s = "";
    for (let c = 0; c < 0x200; c++) s += String.fromCharCode(c) + "x";
    expect(plainText(s)).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
  });
});
