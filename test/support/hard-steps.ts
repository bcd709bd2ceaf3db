// Trace steps whose JSON is hard to get right, for the tests of what stores and streams a step's text.
import type { StoredTraceEvent } from "@autograms/store";

/** Steps whose JSON is hard to get right: every plane, escapes, lone surrogates, long text, numbers JSON writes its own way. */
export const HARD_STEPS: StoredTraceEvent[] = [
  {
    node: "main.code_1",
    loc: { line: 3, column: 5 },
    action: "code",
    stack: ["main"],
    changes: [{ name: "s", before: null, after: 'é😀\u2028\u2029"\\\n\t\u0001 ☃ \u0000' }],
    kind: "code",
    code: 'const s = "é😀"',
    value: "a\ud800b\udfff",
  },
  {
    node: "main.code_2",
    stack: ["main", "f"],
    changes: [{ name: "n", after: { big: 1e21, small: 5e-7, neg: -0, half: 0.1 + 0.2, list: [1, "ü", null, true] } }],
    kind: "code",
    value: { $omitted: { bytes: 12_002, sha256: "ab".repeat(32) } },
  },
  { node: "main.code_3", kind: "code", changes: [{ name: "t", after: "é".repeat(4000) }], value: 1 },
  { node: "main.ask", kind: "tool_call", changes: [], call: { name: "look", args: { q: "ü" } }, "10": 1 },
  { node: "main.say", kind: "exact", changes: [], output: "Hello 👋", __proto__x: { a: [] } },
] as StoredTraceEvent[];
