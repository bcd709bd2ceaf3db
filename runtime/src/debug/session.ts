/**
 * The debugger's engine, shared by the terminal debugger and the DAP server: it runs a
 * conversation turn by turn, holds the run before a node when a breakpoint or a step says so, and
 * answers what the user interface asks (stack, scopes, values). User messages come from the
 * recording when replaying, from a queue of inputs, or from the user interface when asked.
 */
import { Agent, type AgentOptions } from "../agent/agent.js";
import type { AgentConfig } from "../engine/config.js";
import type { PausePoint } from "../agent/performer.js";
import type { Graph, GraphNode, JsonValue, Loc } from "@autograms/graph";
import type { ChatModel } from "../model/types.js";
import type { Frame, Memory } from "../memory/types.js";
import type { TraceEvent } from "../trace/events.js";
import type { LogLevel } from "@autograms/sandbox";
import {
  functionBreakpoint,
  lineBreakpoint,
  type Breakpoint,
  type FunctionBreakpoint,
  type LineBreakpoint,
} from "./breakpoints.js";
import { evaluateIn, evaluationIn, framesOf, scopesOf, type DebugFrame, type DebugScope } from "./inspect.js";
import { recordedConversation, turnTime } from "./recording.js";
import { ReplayModel } from "./replay-model.js";

export type StepMode = "continue" | "step" | "next" | "out";

export interface Stop {
  reason: "entry" | "breakpoint" | "step" | "pause";
  node: string;
  loc: Loc | null;
  /** The breakpoints that stopped the run here. */
  breakpoints: Breakpoint[];
  /** What the run did since it last stopped, one event per step. */
  events: TraceEvent[];
}

export type SessionEvent =
  | { kind: "stopped"; stop: Stop }
  /** The agent replied: the turn is over. */
  | { kind: "reply"; text: string }
  /** A user message was sent (from the recording, the inputs, or `send`). */
  | { kind: "user"; text: string; recorded: boolean }
  /** The conversation waits for the user's message: call `send`. */
  | { kind: "input" }
  /** The agent's code printed a line (`console.log`). */
  | { kind: "log"; level: LogLevel; text: string; node: string; loc: Loc | null }
  | { kind: "ended"; why: "quit" | "recording_over" | "terminated"; memory: Memory | null }
  | { kind: "error"; error: unknown };

export interface DebugSessionOptions extends Omit<AgentOptions, "model"> {
  /** The model for a live run; absent when replaying. */
  model?: ChatModel;
  /** Replay this recording (trace events, or JSONL text) instead of asking a model. */
  replay?: readonly TraceEvent[] | string;
  /** Names the recording in messages. */
  replaySource?: string;
  /** Which conversation of the recording (0 = the first). */
  conversation?: number;
  /** User messages to send, in order, before asking for more. */
  inputs?: string[];
  /** Stop before the first node. */
  stopOnEntry?: boolean;
  /** How many lines the agent's source file has: a line breakpoint past them is refused. */
  sourceLines?: number;
}

export type SessionState = "idle" | "running" | "stopped" | "input" | "ended";

export class DebugSession {
  readonly graph: Graph;
  readonly config: AgentConfig;
  readonly nodes: ReadonlyMap<string, GraphNode>;
  private readonly agent: Agent;
  private readonly listeners: ((e: SessionEvent) => void)[] = [];
  private readonly inputs: string[];
  private readonly sourceLines: number | undefined;
  /** The recorded user messages, when replaying: the recording's turns, first included. */
  private readonly recorded: string[] | null;
  /** The recorded turns' times, when replaying (undefined for a turn that did not read it). */
  private readonly recordedTimes: (number | undefined)[] = [];
  private readonly clock: () => number;
  /** The time of the turn under way (or the last one): `Date.now()` in the expressions evaluated. */
  private time: number | undefined;
  private breakpoints: Breakpoint[] = [];
  private nextId = 1;
  private mode: StepMode = "continue";
  /** Depth of the stack when a `next` or `out` began. */
  private depth = 0;
  /** The line each frame of the stack last entered a node at, so one line stops once per arrival. */
  private lastLines: (number | undefined)[] = [];
  private events: TraceEvent[] = [];
  private at: PausePoint | null = null;
  private memory: Memory | null = null;
  private resumeRun: (() => void) | null = null;
  private answer: ((text: string | null) => void) | null = null;
  private started = false;
  private terminated = false;
  private entryPending: boolean;
  private pauseRequested = false;
  state: SessionState = "idle";

  constructor(graph: Graph, options: DebugSessionOptions) {
    const {
      model,
      replay,
      replaySource,
      conversation = 0,
      inputs = [],
      stopOnEntry = false,
      sourceLines,
      ...agentOptions
    } = options;
    this.sourceLines = sourceLines;
    let runModel: ChatModel;
    if (replay !== undefined) {
      const chosen = recordedConversation(replay, conversation, replaySource);
      runModel = new ReplayModel(
        chosen.turns.flatMap((t) => t.events),
        { source: replaySource, file: graph.source?.file },
      );
      this.recorded = chosen.turns.map((t) => t.user ?? "");
      this.recordedTimes = chosen.turns.map(turnTime);
      // A replay answers the same way every time: retrying a divergence only repeats it.
      agentOptions.config = { ...agentOptions.config, modelRetries: 0 };
    } else {
      if (!model) throw new TypeError("a debug session needs a model or a recording to replay");
      runModel = model;
      this.recorded = null;
    }
    this.agent = new Agent(graph, { ...agentOptions, model: runModel });
    this.clock = agentOptions.clock ?? Date.now;
    this.graph = this.agent.graph;
    this.config = this.agent.config;
    this.nodes = new Map(this.graph.nodes.map((n) => [n.name, n]));
    this.inputs = [...inputs];
    this.entryPending = stopOnEntry;
  }

  on(listener: (e: SessionEvent) => void): void {
    this.listeners.push(listener);
  }

  // Breakpoints.

  /** Replaces the line breakpoints (as a DAP client sets them: all of a file's at once). */
  setLineBreakpoints(lines: readonly number[]): LineBreakpoint[] {
    const set = lines.map((l) => lineBreakpoint(this.graph, this.nextId++, l, this.sourceLines));
    this.breakpoints = [...this.breakpoints.filter((b) => b.kind !== "line"), ...set];
    return set;
  }

  setFunctionBreakpoints(names: readonly string[]): FunctionBreakpoint[] {
    const set = names.map((n) => functionBreakpoint(this.graph, this.nextId++, n));
    this.breakpoints = [...this.breakpoints.filter((b) => b.kind !== "function"), ...set];
    return set;
  }

  /** Adds one breakpoint: a line number, or a function name. */
  addBreakpoint(spec: { line: number } | { function: string }): Breakpoint {
    const b =
      "line" in spec
        ? lineBreakpoint(this.graph, this.nextId++, spec.line, this.sourceLines)
        : functionBreakpoint(this.graph, this.nextId++, spec.function);
    this.breakpoints.push(b);
    return b;
  }

  /** Removes a breakpoint by id, or all of them; how many were removed. */
  deleteBreakpoints(id?: number): number {
    const before = this.breakpoints.length;
    this.breakpoints = id === undefined ? [] : this.breakpoints.filter((b) => b.id !== id);
    return before - this.breakpoints.length;
  }

  listBreakpoints(): readonly Breakpoint[] {
    return this.breakpoints;
  }

  // Running.

  /** Runs the conversation until it ends; events report stops, replies and requests for input. */
  async run(): Promise<void> {
    if (this.started) throw new Error("the session is already running");
    this.started = true;
    this.state = "running";
    let memory: Memory | undefined;
    try {
      let text = this.recorded ? this.recorded[0]! : "";
      for (let turn = 0; ; turn++) {
        // The session reads the clock itself, so that what the user evaluates sees the turn's time.
        this.time = this.recordedTimes[turn] ?? this.clock();
        const r = await this.agent.reply(text, memory, {
          pause: (at) => this.before(at),
          trace: (e) => this.traced(e),
          now: this.time,
        });
        if (this.terminated) return this.end("terminated");
        memory = r.memory;
        this.memory = r.memory;
        this.at = null;
        if (r.reply !== null) this.emit({ kind: "reply", text: r.reply });
        if (r.done) return this.end("quit");
        const next = await this.userMessage(turn + 1);
        if (next === null) return this.end(this.terminated ? "terminated" : "recording_over");
        text = next;
      }
    } catch (error) {
      if (this.terminated) return this.end("terminated");
      this.state = "ended";
      this.emit({ kind: "error", error });
    }
  }

  /** Resumes a stopped run: to the next breakpoint, one node, over calls, or out of the function. */
  resume(mode: StepMode): void {
    if (this.state !== "stopped" && this.state !== "input") throw new Error(`the run is ${this.state}, not stopped`);
    this.mode = mode;
    // A stack of n frames, or the one the conversation waits in.
    this.depth = this.at ? this.at.stack.length : (this.memory?.stack.length ?? 1);
    this.pauseRequested = false;
    if (this.state === "stopped") {
      const go = this.resumeRun!;
      this.resumeRun = null;
      this.state = "running";
      go();
    }
  }

  /** Stops a running run before its next node. */
  pause(): void {
    if (this.state === "running" || this.state === "input") this.pauseRequested = true;
  }

  /** Sends the user's message: now if the conversation waits for one, else when it does. */
  send(text: string): void {
    if (this.answer) {
      const give = this.answer;
      this.answer = null;
      give(text);
    } else {
      this.inputs.push(text);
    }
  }

  /** Ends the session: a stopped or waiting run is dropped. */
  terminate(): void {
    if (this.terminated) return;
    this.terminated = true;
    this.resumeRun?.();
    this.answer?.(null);
  }

  // Inspection.

  /** The function stack, innermost first; empty before the run starts. */
  frames(): DebugFrame[] {
    const stack = this.stack();
    if (!stack) return [];
    return framesOf(stack, this.at ? this.at.node : stack[stack.length - 1]!.node, this.nodes);
  }

  scopes(frame = 0): DebugScope[] {
    const stack = this.stack();
    return stack ? scopesOf(stack, frame) : [];
  }

  /** The value of an expression (a variable name, `this.x`, `a.b[0]`, …) in a frame's scope. */
  evaluate(expression: string, frame = 0): JsonValue {
    const stack = this.stack();
    if (!stack) throw new Error("the run has not started");
    return evaluateIn(stack, frame, expression, this.time);
  }

  /** What `evaluate` would run, to run it elsewhere (a sandbox pool, out of this process). */
  evaluation(
    expression: string,
    frame = 0,
  ): { code: string; variables: Record<string, JsonValue>; now: number | undefined } {
    const stack = this.stack();
    if (!stack) throw new Error("the run has not started");
    return { ...evaluationIn(stack, frame, expression), now: this.time };
  }

  /** Every frame of memory, main first: all the scopes, visible or not. */
  stack(): readonly Frame[] | null {
    return this.at?.stack ?? this.memory?.stack ?? null;
  }

  // Inside.

  private async before(at: PausePoint): Promise<void> {
    if (this.terminated) throw new Error("terminated");
    this.at = at;
    const depth = at.stack.length;
    const node = this.nodes.get(at.node);
    const line = node?.loc?.line;
    const arrived = this.lastLines[depth - 1] !== line;
    this.lastLines.length = depth;
    this.lastLines[depth - 1] = line;
    const hits = this.breakpoints.filter((b) =>
      b.kind === "line" ? arrived && b.nodes.has(at.node) : b.node === at.node,
    );
    const reason = this.stopReason(depth, hits.length > 0);
    if (!reason) return;
    const events = this.events;
    this.events = [];
    this.state = "stopped";
    const stopped = new Promise<void>((resolve) => (this.resumeRun = resolve));
    this.emit({ kind: "stopped", stop: { reason, node: at.node, loc: node?.loc ?? null, breakpoints: hits, events } });
    await stopped;
    if (this.terminated) throw new Error("terminated");
  }

  private traced(e: TraceEvent): void {
    this.events.push(e);
    // A print goes to the user interface as it happens, not only with the next stop.
    if (e.kind === "log") this.emit({ kind: "log", level: e.level, text: e.text, node: e.node, loc: e.loc });
  }

  private stopReason(depth: number, hit: boolean): Stop["reason"] | null {
    if (this.entryPending) {
      this.entryPending = false;
      return "entry";
    }
    if (hit) return "breakpoint";
    if (this.pauseRequested) {
      this.pauseRequested = false;
      return "pause";
    }
    switch (this.mode) {
      case "continue":
        return null;
      case "step":
        return "step";
      case "next":
        return depth <= this.depth ? "step" : null;
      case "out":
        return depth < this.depth ? "step" : null;
    }
  }

  private async userMessage(turn: number): Promise<string | null> {
    if (this.recorded) {
      if (turn >= this.recorded.length) return null;
      this.emit({ kind: "user", text: this.recorded[turn]!, recorded: true });
      return this.recorded[turn]!;
    }
    const queued = this.inputs.shift();
    if (queued !== undefined) {
      this.emit({ kind: "user", text: queued, recorded: false });
      return queued;
    }
    this.state = "input";
    const text = await new Promise<string | null>((resolve) => {
      this.answer = resolve;
      this.emit({ kind: "input" });
    });
    if (text !== null) {
      this.state = "running";
      this.emit({ kind: "user", text, recorded: false });
    }
    return text;
  }

  private end(why: "quit" | "recording_over" | "terminated"): void {
    this.state = "ended";
    this.emit({ kind: "ended", why, memory: this.memory });
  }

  private emit(e: SessionEvent): void {
    for (const l of this.listeners) l(e);
  }
}
