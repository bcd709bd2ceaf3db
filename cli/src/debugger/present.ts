// How the debuggers show values, places in the agent source and what a run did, as text.
import type { JsonValue, Loc, TraceEvent } from "@autograms/runtime";

/** A value on one line, cut to `max` characters. */
export function valueText(value: JsonValue | undefined, max = 120): string {
  const text = value === undefined ? "undefined" : JSON.stringify(value);
  if (text.length <= max) return text;
  // Never end on the first half of a surrogate pair (a lone surrogate is no character).
  const cut = /[\uD800-\uDBFF]/.test(text.charAt(max - 2)) ? max - 2 : max - 1;
  return `${text.slice(0, cut)}…`;
}

/** The agent source, by line (1-based), when it is at hand. */
export class SourceLines {
  private readonly lines: string[];

  constructor(
    readonly file: string,
    readonly text: string | null,
  ) {
    this.lines = text === null ? [] : text.split("\n");
  }

  get available(): boolean {
    return this.lines.length > 0;
  }

  /** How many lines the file has (a final line break ends the last line, it does not start one). */
  get count(): number {
    return this.lines.length - (this.text?.endsWith("\n") ? 1 : 0);
  }

  line(n: number): string | undefined {
    return this.lines[n - 1];
  }

  /** `file:line`, or a note that the node has no place in the source. */
  where(loc: Loc | null): string {
    return loc ? `${this.file}:${loc.line}` : "(no source location)";
  }

  /** Lines around `line`, numbered, the current one marked with `>`. */
  around(line: number, before = 2, after = 2): string {
    const from = Math.max(1, line - before);
    const to = Math.min(this.lines.length, line + after);
    const width = String(to).length;
    const out: string[] = [];
    for (let n = from; n <= to; n++)
      out.push(`${n === line ? ">" : " "} ${String(n).padStart(width)} | ${this.lines[n - 1]}`.trimEnd());
    return out.join("\n");
  }
}

/** What a step changed and what the model decided, one line each, for the steps since the last stop. */
export function eventLines(events: readonly TraceEvent[]): string[] {
  const out: string[] = [];
  for (const e of events) {
    for (const c of e.changes) {
      if (c.name.startsWith("_")) continue;
      out.push(
        c.before === undefined
          ? `${c.name} = ${valueText(c.after)}`
          : `${c.name}: ${valueText(c.before, 50)} → ${valueText(c.after)}`,
      );
    }
    if (e.kind === "transition" || e.kind === "return" || e.kind === "quit") {
      for (const d of e.decisions) out.push(`the model chose "${d.choices[d.chosen]}" (${d.purpose} at ${e.node})`);
    }
    if (e.kind === "generate" && e.purpose === "thought") out.push(`thought at ${e.node}: ${valueText(e.output)}`);
    if (e.kind === "return") out.push(`${e.function} returned ${valueText(e.value)}`);
    if (e.kind === "tool_call")
      out.push(
        `tool ${e.tool}(${valueText(e.arguments, 50)}) → ${e.error === undefined ? valueText(e.result) : `error: ${e.error}`}`,
      );
  }
  return out;
}
