// The terminal debugger's command loop, driven in-process with scripted input lines.
import { beforeAll, describe, expect, it } from "vitest";
import { DebugSession, OfflineModel, ScriptedModel, type TraceEvent } from "@autograms/runtime";
import { graph, n } from "../runtime/helpers.js";
import { TerminalDebugger } from "../../cli/src/debugger/terminal.js";
import { SourceLines } from "../../cli/src/debugger/present.js";
import { record, sampleGraph, sampleSource } from "./support.js";

let tutorTrace: TraceEvent[];
beforeAll(async () => {
  tutorTrace = (await record("tutor")).events;
});

async function session(
  lines: string[],
  options: ConstructorParameters<typeof DebugSession>[1] = { replay: tutorTrace, stopOnEntry: true },
  source: string | null = sampleSource("tutor"),
) {
  const out: string[] = [];
  const err: string[] = [];
  const input = [...lines];
  const text = new SourceLines("samples/tutor/agent.ts", source);
  const s = new DebugSession(sampleGraph("tutor"), {
    ...options,
    ...(text.available ? { sourceLines: text.count } : {}),
  });
  const terminal = new TerminalDebugger(s, text, {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    read: async () => input.shift() ?? null,
    interactive: false,
    prompt: () => {},
  });
  const code = await terminal.run();
  return { code, out: out.join(""), err: err.join(""), unread: input };
}

describe("the terminal debugger", () => {
  it("stops on entry, sets breakpoints by line and by function, continues to them and shows where it stands", async () => {
    const r = await session([
      "break 44",
      "break encouragement",
      "breakpoints",
      "continue",
      "stack",
      "print topic",
      "print this.correct + 1",
      "continue",
      "vars",
      "quit",
    ]);
    expect(r.code).toBe(0);
    expect(r.err).toBe("");
    expect(r.unread).toEqual([]);
    const expected = [
      "Paused before the first node: main at samples/tutor/agent.ts:14 (node main)",
      ">14 |   main() {",
      "(debug) break 44",
      "Breakpoint 1 at samples/tutor/agent.ts:44: pose",
      "(debug) break encouragement",
      "Breakpoint 2 at encouragement, samples/tutor/agent.ts:63 (node encouragement)",
      "(debug) breakpoints",
      "1: samples/tutor/agent.ts:44",
      "2: function encouragement (samples/tutor/agent.ts:63)",
      "(debug) continue",
      "Agent: Hi! I'm your fractions tutor. We'll do two short units, each with one problem. Ready to start?",
      "you (recorded): Yes, let's go!",
      "Agent: Unit: adding fractions. To add fractions with the same denominator, add the tops and keep the bottom: 1/5 + 2/5 = 3/5. Any questions before we try one?",
      "you (recorded): No questions.",
    ];
    expect(r.out.startsWith(expected.join("\n").replace(">14 |", "> 14 |"))).toBe(true);
    expect(r.out).toContain(
      [
        "Breakpoint 1: doUnit at samples/tutor/agent.ts:44 (node pose)",
        '> 44 |     chatExact(`Here\'s your problem: ${problem}`, { name: "pose" });',
        "(debug) stack",
        ">#0 doUnit at samples/tutor/agent.ts:44 (node pose)",
        '      chatExact(`Here\'s your problem: ${problem}`, { name: "pose" });',
        " #1 main at samples/tutor/agent.ts:27 (node main.for_of_6ddc.call_doUnit_c1db)",
        "      this.doUnit(unit.topic, unit.lesson, unit.problem, unit.answer);",
        "(debug) print topic",
        'topic = "adding fractions"',
        "(debug) print this.correct + 1",
        "this.correct + 1 = 1",
        "(debug) continue",
      ].join("\n"),
    );
    expect(r.out).toContain(
      ["you (recorded): 3/4", "Breakpoint 2: encouragement at samples/tutor/agent.ts:63 (node encouragement)"].join(
        "\n",
      ),
    );
    expect(r.out).toContain(
      [
        "(debug) vars",
        "encouragement (function):",
        "  (no variables)",
        "doUnit (global_function):",
        '  topic = "adding fractions"',
      ].join("\n"),
    );
    expect(r.out).toMatch(/main \(globals\):\n {2}units = \[\{"topic":"adding fractions".*…\n {2}correct = 0\n/);
    expect(r.out.endsWith("(debug) quit\n")).toBe(true);
  });

  it("steps, goes over and out of calls, lists source and selects frames", async () => {
    const r = await session(["break 45", "c", "s", "frame 1", "print topic", "list", "out", "next", "n", "q"]);
    expect(r.out).toContain(
      [
        "Breakpoint 1: doUnit at samples/tutor/agent.ts:45 (node doUnit.call_checkAnswer_6459)",
        "> 45 |     const verdict = this.checkAnswer(this._last_user_reply, answer);",
        "(debug) s",
        "Stepped: checkAnswer at samples/tutor/agent.ts:55 (node checkAnswer)",
        "> 55 |   @localFunction checkAnswer(reply: string, answer: string): string {",
        "(debug) frame 1",
        "#1 doUnit at samples/tutor/agent.ts:45 (node doUnit.call_checkAnswer_6459)",
        "(debug) print topic",
        'topic = "adding fractions"',
        "(debug) list",
        '  40 |       transition_choices: ["no", "yes"],',
      ].join("\n"),
    );
    expect(r.out).toContain(
      [
        "> 45 |     const verdict = this.checkAnswer(this._last_user_reply, answer);",
        '  46 |     if (verdict === "correct") {',
      ].join("\n"),
    );
    expect(r.out).toContain(
      [
        "(debug) out",
        '  · verdict = "correct"',
        '  · checkAnswer returned "correct"',
        "Stepped: doUnit at samples/tutor/agent.ts:46 (node doUnit.if_bcdb.a)",
      ].join("\n"),
    );
    expect(r.out).toContain(
      [
        "(debug) next",
        "Stepped: doUnit at samples/tutor/agent.ts:47 (node doUnit.if_bcdb.a.code_561f)",
        "> 47 |       this.correct += 1;",
        "(debug) n",
        "  · correct: 0 → 1",
        "Stepped: doUnit at samples/tutor/agent.ts:48 (node doUnit.if_bcdb.a.call_encouragement_5ae2)",
      ].join("\n"),
    );
  });

  it("says what it cannot do, and in a local function shows the caller's scopes as not visible", async () => {
    const r = await session([
      "break 68",
      "break 99",
      "break 0",
      "breakpoints",
      "break nope",
      "break other.ts:3",
      "print",
      "print missing",
      "frame 9",
      "delete x",
      "delete 5",
      "jump",
      "break checkAnswer",
      "c",
      "vars",
      "print units",
      "delete",
      "c",
    ]);
    expect(r.out).toContain(
      [
        "(debug) break 68",
        "Breakpoint 1 at samples/tutor/agent.ts:67 (line 68 has no node; moved): encouragement.return_3607",
        "(debug) break 99",
        "line 99 is past the end of samples/tutor/agent.ts, which has 69 lines",
        "(debug) break 0",
        "line 0 is not a line of samples/tutor/agent.ts: lines start at 1",
        "(debug) breakpoints",
        "1: samples/tutor/agent.ts:67",
        "(debug) break nope",
        "the agent has no function 'nope' (it has main, doUnit, checkAnswer, encouragement), and no node of that name",
        "(debug) break other.ts:3",
        "'other.ts' is not the agent's file (samples/tutor/agent.ts)",
        "(debug) print",
        "print what? a variable or an expression",
        "(debug) print missing",
      ].join("\n"),
    );
    expect(r.out).toContain(
      [
        "(debug) frame 9",
        "frame takes a number from 0 to 0",
        "(debug) delete x",
        "delete takes a breakpoint number, not 'x'",
        "(debug) delete 5",
        "No breakpoint 5",
        "(debug) jump",
        "unknown command 'jump' (help lists them)",
      ].join("\n"),
    );
    expect(r.out).toContain(
      [
        "(debug) vars",
        "checkAnswer (local_function):",
        '  reply = "3/4"',
        '  answer = "3/4"',
        "doUnit (global_function) (not visible from the selected frame):",
      ].join("\n"),
    );
    expect(r.out).toMatch(/\(debug\) print units\n.*units.*not defined/);
    expect(r.out).toContain("(debug) delete\nDeleted 2 breakpoints\n(debug) c\n");
    expect(r.out).toMatch(/The conversation has ended \(quit\)\.\n$/);
  });

  it("asks for the user's messages on a live model, and takes commands there after a slash", async () => {
    const r = await session(
      ["c", "yes", "/stack", "/break pose", "/next", "no questions", "print problem", "c", "3/4", "/q"],
      { model: new OfflineModel(), stopOnEntry: true },
    );
    expect(r.out).toContain(
      [
        "(debug) c",
        "Agent: Hi! I'm your fractions tutor. We'll do two short units, each with one problem. Ready to start?",
        "you> yes",
        "Agent: Unit: adding fractions. To add fractions with the same denominator, add the tops and keep the bottom: 1/5 + 2/5 = 3/5. Any questions before we try one?",
        "you> /stack",
        ">#0 doUnit at samples/tutor/agent.ts:36 (node explain)",
      ].join("\n"),
    );
    expect(r.out).toContain(
      [
        "you> /break pose",
        "Breakpoint 1 at samples/tutor/agent.ts:44: pose",
        "you> /next",
        "(after your message: next)",
        "you> no questions",
        "Breakpoint 1: doUnit at samples/tutor/agent.ts:44 (node pose)",
      ].join("\n"),
    );
    expect(r.out).toContain(
      '(debug) print problem\nproblem = "What is 1/4 + 2/4?"\n(debug) c\nAgent: Here\'s your problem: What is 1/4 + 2/4?\nyou> 3/4\n',
    );
    expect(r.out.endsWith("you> /q\n")).toBe(true);
  });

  it("prints a runtime failure with a code frame on stderr and exits 1", async () => {
    const broken = structuredClone(sampleGraph("tutor"));
    broken.nodes.find((n) => n.name === "pose")!.instruction = "Here's your problem: $problm";
    const out: string[] = [];
    const err: string[] = [];
    const input = ["c", "c"];
    const s = new DebugSession(broken, { replay: tutorTrace, stopOnEntry: true });
    const code = await new TerminalDebugger(s, new SourceLines("samples/tutor/agent.ts", sampleSource("tutor")), {
      out: (t) => out.push(t),
      err: (t) => err.push(t),
      read: async () => input.shift() ?? null,
      interactive: false,
      prompt: () => {},
    }).run();
    expect(code).toBe(1);
    expect(err.join("")).toContain(
      "samples/tutor/agent.ts:44:5 - error undefined_variable: node 'pose': instruction uses undefined variable $problm\n",
    );
    expect(err.join("")).toContain('> 44 |     chatExact(`Here\'s your problem: ${problem}`, { name: "pose" });');
  });

  it("works without the source, naming nodes and lines only", async () => {
    const r = await session(["list", "stack", "q"], { replay: tutorTrace, stopOnEntry: true }, null);
    expect(r.out).toContain(
      "Paused before the first node: main at samples/tutor/agent.ts:14 (node main)\n(debug) list\nthe agent source is not at hand",
    );
    expect(r.out).toContain("(debug) stack\n>#0 main at samples/tutor/agent.ts:14 (node main)\n(debug) q\n");
  });

  it("shows what the agent's code prints on stderr as it runs, between the replies", async () => {
    const g = graph([
      n({
        name: "hello",
        action: "code",
        instruction: "console.log('hello', { n: 1 }); console.error('bad')",
        loc: { line: 3, column: 5, endLine: 3, endColumn: 40 },
        transitions: ["say"],
      }),
      n({ name: "say", action: "chat_exact", instruction: "Hi." }),
    ]);
    const out: string[] = [];
    const both: string[] = [];
    const s = new DebugSession(g, { model: new ScriptedModel({}) });
    const code = await new TerminalDebugger(s, new SourceLines("agent.ts", null), {
      out: (t) => (out.push(t), both.push(t)),
      err: (t) => both.push(t),
      read: async () => null,
      interactive: false,
      prompt: () => {},
    }).run();
    expect(code).toBe(0);
    expect(out.join("")).not.toContain("hello");
    expect(both.join("")).toMatch(/^\[log agent\.ts:3\] hello \{ n: 1 \}\n\[error agent\.ts:3\] bad\nAgent: Hi\.\n/);
  });
});
