import { describe, expect, it } from "vitest";
import { logLines } from "../../cli/src/terminal/print-log.js";

const at = { line: 12, column: 5, endLine: 12, endColumn: 30 };

describe("logLines", () => {
  it("marks every line of a print with its level and place, and colours it only for a terminal", () => {
    expect(logLines({ level: "log", text: "a\nb", node: "main.code_1", loc: at }, "agent.ts", false)).toBe(
      "[log agent.ts:12] a\n[log agent.ts:12] b\n",
    );
    expect(logLines({ level: "info", text: "x", node: "main.code_1", loc: null }, "agent.ts", false)).toBe(
      "[info main.code_1] x\n",
    );
    expect(logLines({ level: "log", text: "x", node: "n", loc: at }, "agent.ts", true)).toBe(
      "\x1b[2m[log agent.ts:12] x\x1b[0m\n",
    );
    expect(logLines({ level: "warn", text: "x", node: "n", loc: at }, "agent.ts", true)).toBe(
      "\x1b[33m[warn agent.ts:12] x\x1b[0m\n",
    );
    expect(logLines({ level: "error", text: "x", node: "n", loc: at }, "agent.ts", true)).toBe(
      "\x1b[31m[error agent.ts:12] x\x1b[0m\n",
    );
  });

  it("lets no control sequence of the printed text reach the terminal", () => {
    const text = logLines(
      { level: "log", text: "\x1b]0;title\x07in \x1b[31mred\x1b[0m\rover", node: "n", loc: at },
      "agent.ts",
      true,
    );
    expect(text).toBe("\x1b[2m[log agent.ts:12] in redover\x1b[0m\n");
  });
});
