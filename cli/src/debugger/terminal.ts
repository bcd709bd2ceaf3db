// The terminal debugger: a command prompt whenever the run stops before a node, and the user's
// messages when the conversation waits for one. Piped input works line by line (each line is
// echoed after its prompt, so a transcript reads as a session did).
import {
  formatAgentError,
  scopeOf,
  type DebugSession,
  type SessionEvent,
  type Stop,
  type StepMode,
} from "@autograms/runtime";
import { eventLines, valueText, type SourceLines } from "./present.js";
import { logLines } from "../terminal/print-log.js";

export interface TerminalIO {
  out: (text: string) => void;
  err: (text: string) => void;
  /** The next line of input, or null at its end. */
  read: () => Promise<string | null>;
  /** A terminal shows its own prompt and echo; piped input gets them written out. */
  interactive: boolean;
  /** Shows the prompt on a terminal. */
  prompt: (text: string) => void;
}

const RESUME: Record<string, StepMode> = {
  s: "step",
  step: "step",
  n: "next",
  next: "next",
  o: "out",
  out: "out",
  finish: "out",
  c: "continue",
  continue: "continue",
};

const HELP = `Commands (while stopped; at the "you>" prompt, start them with "/"):
  break LINE | FILE:LINE | FUNCTION   set a breakpoint (b); a node's name sets one on its line
  delete [ID]                         delete a breakpoint, or all of them (d)
  breakpoints                         list the breakpoints
  step                                run one node, into calls (s)
  next                                run one node, over calls (n)
  out                                 run until the current function returns (o)
  continue                            run until a breakpoint (c)
  print EXPR                          a variable or expression in the selected frame's scope (p)
  vars                                the memory's scopes and their variables (v)
  stack                               the function stack with source lines (bt)
  frame N                             select frame N of the stack (f)
  list [LINE]                         the source around the current line (l)
  quit                                end the session (q)`;

export class TerminalDebugger {
  private frame = 0;
  private failed = false;
  /** A pause was asked for and the run has not stopped yet. */
  private pausing = false;
  private readonly work: Promise<void>[] = [];

  constructor(
    private readonly session: DebugSession,
    private readonly source: SourceLines,
    private readonly io: TerminalIO,
  ) {}

  /** Runs the session to its end; the exit code. */
  async run(): Promise<number> {
    this.session.on((e) => this.onEvent(e));
    await this.session.run();
    await Promise.all(this.work);
    return this.failed ? 1 : 0;
  }

  private onEvent(e: SessionEvent): void {
    switch (e.kind) {
      case "stopped":
        this.frame = 0;
        this.pausing = false;
        this.showStop(e.stop);
        this.work.push(this.commands(false));
        break;
      case "reply":
        this.io.out(`${this.session.config.agentName}: ${e.text}\n`);
        break;
      case "log":
        this.io.err(logLines(e, this.source.file, false));
        break;
      case "user":
        if (e.recorded) this.io.out(`you (recorded): ${e.text}\n`);
        break;
      case "input":
        this.frame = 0;
        this.pausing = false;
        this.work.push(this.commands(true));
        break;
      case "ended":
        if (e.why === "quit") this.io.out("The conversation has ended (quit).\n");
        if (e.why === "recording_over") this.io.out("The recording ends here: it holds no more user messages.\n");
        break;
      case "error":
        this.failed = true;
        this.io.err(formatAgentError(e.error, this.source.text ?? undefined, { graph: this.session.graph }));
        break;
    }
  }

  private showStop(stop: Stop): void {
    // After a step, what the step did; after a run to a breakpoint that would be the whole run.
    if (stop.reason === "step") for (const line of eventLines(stop.events)) this.io.out(`  · ${line}\n`);
    const frame = this.session.frames()[0]!;
    const what =
      stop.reason === "breakpoint"
        ? `Breakpoint ${stop.breakpoints.map((b) => b.id).join(", ")}`
        : stop.reason === "entry"
          ? "Paused before the first node"
          : stop.reason === "pause"
            ? "Paused"
            : "Stepped";
    this.io.out(`${what}: ${frame.function} at ${this.source.where(stop.loc)} (node ${stop.node})\n`);
    if (stop.loc && this.source.available) this.io.out(`${this.source.around(stop.loc.line, 0, 0)}\n`);
  }

  /**
   * Ctrl-C. While the run is busy it pauses before its next node, and true is returned. At a
   * prompt, or when a pause asked for has not come (a model that does not answer), the session is
   * to end: false.
   */
  interrupt(): boolean {
    if (this.session.state !== "running" || this.pausing) return false;
    this.pausing = true;
    this.session.pause();
    this.io.out("\n(pausing before the next node; Ctrl-C again ends the session)\n");
    return true;
  }

  /** Runs a command as if typed at the prompt (breakpoints given on the command line). */
  command(line: string): void {
    this.execute(line.trim(), false);
  }

  /** Reads commands until one resumes the run (or, waiting for the user, until their message). */
  private async commands(input: boolean): Promise<void> {
    for (;;) {
      const prompt = input ? "you> " : "(debug) ";
      this.io.prompt(prompt);
      const line = await this.io.read();
      if (line === null) {
        if (!this.io.interactive) this.io.out(`${prompt}\n`);
        this.session.terminate();
        return;
      }
      if (!this.io.interactive) this.io.out(`${prompt}${line}\n`);
      if (input && !line.startsWith("/")) {
        this.session.send(line);
        return;
      }
      if (this.execute((input ? line.slice(1) : line).trim(), input)) return;
    }
  }

  /** Runs one command; true when the prompt is done (the run resumed or the session ends). */
  private execute(line: string, input: boolean): boolean {
    const [word = "", ...rest] = line.split(/\s+/);
    const arg = rest.join(" ");
    const mode = RESUME[word];
    if (mode) {
      this.session.resume(mode);
      if (input) this.io.out(`(after your message: ${mode})\n`);
      return !input;
    }
    try {
      switch (word) {
        case "":
          return false;
        case "b":
        case "break":
          this.setBreakpoint(arg);
          return false;
        case "d":
        case "delete":
          this.deleteBreakpoint(arg);
          return false;
        case "breakpoints":
        case "info":
          this.listBreakpoints();
          return false;
        case "p":
        case "print":
          this.print(arg);
          return false;
        case "v":
        case "vars":
          this.vars();
          return false;
        case "bt":
        case "stack":
        case "where":
          this.stack();
          return false;
        case "f":
        case "frame":
          this.selectFrame(arg);
          return false;
        case "l":
        case "list":
          this.list(arg);
          return false;
        case "h":
        case "help":
          this.io.out(`${HELP}\n`);
          return false;
        case "q":
        case "quit":
          this.session.terminate();
          return true;
        default:
          this.io.out(`unknown command '${word}' (help lists them)\n`);
          return false;
      }
    } catch (e) {
      this.io.out(`${e instanceof Error ? e.message : String(e)}\n`);
      return false;
    }
  }

  private setBreakpoint(spec: string): void {
    if (!spec) throw new Error("break what? a line (40), file:line (agent.ts:40) or a function name (doUnit)");
    const located = /^(?:(.*):)?(\d+)$/.exec(spec);
    if (located) {
      const [, file, line] = located;
      if (file !== undefined && !sameFile(file, this.source.file))
        throw new Error(`'${file}' is not the agent's file (${this.source.file})`);
      const b = this.session.addBreakpoint({ line: Number(line) });
      if (b.kind !== "line" || b.line === null) {
        this.session.deleteBreakpoints(b.id);
        throw new Error(b.kind === "line" && b.message ? b.message : "no line of the agent has a node");
      }
      const moved = b.line === b.requested ? "" : ` (line ${b.requested} has no node; moved)`;
      this.io.out(`Breakpoint ${b.id} at ${this.source.file}:${b.line}${moved}: ${[...b.nodes].join(", ")}\n`);
      return;
    }
    const node = this.session.nodes.get(spec);
    if (node?.loc && !this.session.graph.functions[spec]) {
      this.setBreakpoint(String(node.loc.line));
      return;
    }
    const b = this.session.addBreakpoint({ function: spec });
    if (b.kind !== "function" || b.node === null) {
      this.session.deleteBreakpoints(b.id);
      throw new Error(
        `${b.kind === "function" && b.message ? b.message : `no function '${spec}'`}, and no node of that name`,
      );
    }
    this.io.out(`Breakpoint ${b.id} at ${spec}, ${this.source.file}:${b.line ?? "?"} (node ${b.node})\n`);
  }

  private deleteBreakpoint(arg: string): void {
    if (arg && !/^\d+$/.test(arg)) throw new Error(`delete takes a breakpoint number, not '${arg}'`);
    const n = this.session.deleteBreakpoints(arg ? Number(arg) : undefined);
    this.io.out(
      arg
        ? n
          ? `Deleted breakpoint ${arg}\n`
          : `No breakpoint ${arg}\n`
        : `Deleted ${n} breakpoint${n === 1 ? "" : "s"}\n`,
    );
  }

  private listBreakpoints(): void {
    const all = this.session.listBreakpoints();
    if (!all.length) this.io.out("No breakpoints.\n");
    for (const b of all) {
      this.io.out(
        b.kind === "line"
          ? `${b.id}: ${this.source.file}:${b.line}\n`
          : `${b.id}: function ${b.name} (${this.source.file}:${b.line ?? "?"})\n`,
      );
    }
  }

  private print(expression: string): void {
    if (!expression) throw new Error("print what? a variable or an expression");
    this.io.out(`${expression} = ${JSON.stringify(this.session.evaluate(expression, this.frame), null, 2)}\n`);
  }

  /** Every scope of memory, innermost first, marking those the selected frame cannot see. */
  private vars(): void {
    const stack = this.session.stack();
    if (!stack) throw new Error("the run has not started");
    const top = stack.length - 1 - this.frame;
    const lowest = top - this.session.scopes(this.frame).length + 1;
    for (let i = stack.length - 1; i >= 0; i--) {
      const s = scopeOf(stack[i]!);
      this.io.out(`${s.name}${i >= lowest && i <= top ? "" : " (not visible from the selected frame)"}:\n`);
      const names = Object.keys(s.variables);
      if (!names.length) this.io.out("  (no variables)\n");
      for (const name of names) this.io.out(`  ${name} = ${valueText(s.variables[name])}\n`);
    }
  }

  private stack(): void {
    for (const f of this.session.frames()) {
      const text = f.loc ? this.source.line(f.loc.line)?.trim() : undefined;
      const mark = f.index === this.frame ? ">" : " ";
      this.io.out(
        `${mark}#${f.index} ${f.function} at ${this.source.where(f.loc)} (node ${f.node})${text ? `\n      ${text}` : ""}\n`,
      );
    }
  }

  private selectFrame(arg: string): void {
    const frames = this.session.frames();
    const n = Number(arg);
    if (!/^\d+$/.test(arg) || n >= frames.length)
      throw new Error(`frame takes a number from 0 to ${frames.length - 1}`);
    this.frame = n;
    const f = frames[n]!;
    this.io.out(`#${n} ${f.function} at ${this.source.where(f.loc)} (node ${f.node})\n`);
  }

  private list(arg: string): void {
    if (!this.source.available)
      throw new Error("the agent source is not at hand (a graph whose .ts file moved or changed)");
    const at = arg ? Number(arg) : this.session.frames()[this.frame]?.loc?.line;
    if (at === undefined || !Number.isInteger(at) || at < 1)
      throw new Error(arg ? `list takes a line number, not '${arg}'` : "the current node has no source line");
    this.io.out(`${this.source.around(at, 5, 5)}\n`);
  }
}

function sameFile(given: string, agentFile: string): boolean {
  const norm = (p: string) => p.split("\\").join("/").replace(/^\.\//, "");
  const a = norm(given);
  const b = norm(agentFile);
  return a === b || b.endsWith(`/${a}`) || a.endsWith(`/${b}`);
}
