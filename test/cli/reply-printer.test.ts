// How chat prints replies: whole on a pipe; on a terminal growing as they are written and redrawn
// in place on a reset. A small terminal (rows of cells, wrapping, the cursor moves chat uses)
// shows what a person would see.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { ReplyChunk } from "@autograms/runtime";
import { replyPrinter } from "../../cli/src/conversation/reply-printer.js";
import { cursorRow, expandTabs, lineWidth } from "../../cli/src/terminal/text-width.js";

/** A terminal `columns` wide that understands text, \n, \r, ESC[nA (up) and ESC[J (erase below). */
class Terminal {
  rows: string[][] = [[]];
  row = 0;
  col = 0;
  /** A row filled exactly: the next character goes to the next row (terminals wrap late). */
  private pending = false;
  constructor(readonly columns: number) {}

  write(text: string): void {
    const re = /\x1b\[(\d*)A|\x1b\[J|\r|\n|[^\x1b\r\n]/gsu;
    for (const m of text.matchAll(re)) {
      const t = m[0];
      if (t.startsWith("\x1b[") && t.endsWith("A")) {
        this.row = Math.max(0, this.row - Number(m[1] || 1));
        this.pending = false;
      } else if (t === "\x1b[J") {
        this.rows[this.row] = this.rows[this.row]!.slice(0, this.col);
        this.rows.length = this.row + 1;
      } else if (t === "\r") {
        this.col = 0;
        this.pending = false;
      } else if (t === "\n") {
        this.down();
        this.col = 0;
      } else {
        const width = lineWidth(t);
        if (this.pending || this.col + width > this.columns) {
          this.down();
          this.col = 0;
        }
        this.rows[this.row]![this.col] = t;
        if (width === 2) this.rows[this.row]![this.col + 1] = "";
        this.col += width;
        this.pending = this.col >= this.columns;
      }
    }
  }

  private down(): void {
    this.pending = false;
    this.row++;
    this.rows[this.row] ??= [];
  }

  /** The screen's text, rows joined (a wrapped line shows as several rows). */
  get screen(): string[] {
    return this.rows.map((r) => r.join(""));
  }
}

const delta = (text: string): ReplyChunk => ({ kind: "delta", node: "n", text });
const reset: ReplyChunk = { kind: "reset", node: "n" };

/** The rows a text takes on the terminal, as Terminal would show it written alone. */
function rowsOf(text: string, columns: number): string[] {
  const t = new Terminal(columns);
  t.write(text);
  return t.screen;
}

describe("text width", () => {
  it("counts wide characters twice, marks and joiners not at all", () => {
    expect(lineWidth("abc")).toBe(3);
    expect(lineWidth("日本")).toBe(4);
    expect(lineWidth("e\u0301")).toBe(1);
    expect(lineWidth("🙂")).toBe(2);
  });

  it("expands tabs to the next multiple of 8 columns of their line", () => {
    expect(expandTabs("a\tb\n\tc\t")).toBe(`a${" ".repeat(7)}b\n${" ".repeat(8)}c${" ".repeat(7)}`);
    expect(expandTabs("日本\tx")).toBe(`日本${" ".repeat(4)}x`);
  });

  it("puts the cursor on the row a terminal does, a full row not wrapping until more comes", () => {
    expect(cursorRow("", 10)).toBe(0);
    expect(cursorRow("x".repeat(10), 10)).toBe(0);
    expect(cursorRow("x".repeat(11), 10)).toBe(1);
    expect(cursorRow(`${"x".repeat(10)}\ny`, 10)).toBe(1);
    expect(cursorRow("a\n\nb", 10)).toBe(2);
  });
});

describe("replyPrinter", () => {
  it("prints replies whole when not streaming, without control sequences", () => {
    const out: string[] = [];
    const p = replyPrinter({ write: (t) => out.push(t) }, "Agent", false);
    expect(p.onText).toBeUndefined();
    p.reply("Hi \x1b[31mthere\x1b[0m");
    p.reply(null);
    p.abandon();
    expect(out).toEqual(["Agent: Hi there\n"]);
  });

  it("grows the line as pieces come, and redraws it in place on a reset", () => {
    const term = new Terminal(20);
    term.write("You: hello\n");
    const p = replyPrinter(term, "Agent", true);
    p.onText!(delta("Nice weather "));
    p.onText!(delta("today, isn't it?"));
    expect(term.screen).toEqual(["You: hello", "Agent: Nice weather ", "today, isn't it?"]);
    p.onText!(reset);
    expect(term.screen).toEqual(["You: hello", "Agent: "]);
    p.onText!(delta("Ready?"));
    p.reply("Ready?");
    term.write("You: ");
    expect(term.screen).toEqual(["You: hello", "Agent: Ready?", "You: "]);
  });

  it("erases a reply that a failed turn had begun", () => {
    const term = new Terminal(12);
    term.write("You: go\n");
    const p = replyPrinter(term, "Agent", true);
    p.onText!(delta("a long answer that wraps"));
    p.abandon();
    expect(term.screen).toEqual(["You: go", ""]);
  });

  it("keeps escape sequences split across pieces off the screen", () => {
    const term = new Terminal(40);
    const p = replyPrinter(term, "Agent", true);
    for (const piece of ["red \x1b", "[31mtext\x1b]0;ti", "tle\x07 done"]) p.onText!(delta(piece));
    p.reply("red \x1b[31mtext\x1b]0;title\x07 done");
    expect(term.screen).toEqual(["Agent: red text done", ""]);
  });

  it("leaves exactly the reply on the screen, whatever the pieces and resets", () => {
    const piece = fc.oneof(
      fc.constantFrom("\n", "日本語", "🙂", "\t", "x".repeat(13), " "),
      fc.string({ maxLength: 9 }),
    );
    const chunk = fc.oneof({ weight: 4, arbitrary: piece.map(delta) }, { weight: 1, arbitrary: fc.constant(reset) });
    fc.assert(
      fc.property(
        fc.integer({ min: 8, max: 30 }),
        fc.array(chunk, { maxLength: 12 }),
        fc.array(piece, { maxLength: 4 }),
        (columns, chunks, final) => {
          const reply = final.join("").replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, "");
          const term = new Terminal(columns);
          term.write("You: earlier line\n");
          const before = term.screen.slice(0, -1);
          const p = replyPrinter(term, "Agent", true);
          // Whatever was streamed, the runtime's last reset is followed by the reply's own deltas.
          for (const c of [...chunks, reset, delta(reply)]) p.onText!(c);
          p.reply(reply);
          expect(term.screen).toEqual([...before, ...rowsOf(expandTabs(`Agent: ${reply}`) + "\n", columns)]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
