import type { ChatModel, ChoiceRequest, CompletionRequest, Graph, GraphNode, TraceEvent } from "@autograms/runtime";
import { readFileSync } from "node:fs";

/** A deterministic model: answers come from functions of the request; every request is recorded. */
export class TestModel implements ChatModel {
  readonly completions: CompletionRequest[] = [];
  readonly choices: ChoiceRequest[] = [];
  constructor(
    private readonly answer: (req: CompletionRequest) => string | Promise<string> = (req) => `reply from ${req.node}`,
    private readonly pick: (req: ChoiceRequest) => number | Promise<number> = () => 0,
  ) {}
  async complete(req: CompletionRequest): Promise<string> {
    // The request's data is copied; its callback and signal are kept as they are (they cannot be cloned).
    const { onText, signal, onUsage: _usage, ...data } = req;
    this.completions.push({ ...structuredClone(data), ...(onText && { onText }), ...(signal && { signal }) });
    return this.answer(req);
  }
  async choose(req: ChoiceRequest): Promise<number> {
    const { signal, onUsage: _usage, ...data } = req;
    this.choices.push({ ...structuredClone(data), ...(signal && { signal }) });
    return this.pick(req);
  }
}

/** Answers taken in order from a list; running out fails the test loudly. */
export function queue<T>(items: T[]): () => T {
  let i = 0;
  return () => {
    if (i >= items.length) throw new Error(`scripted answers exhausted after ${items.length}`);
    return items[i++]!;
  };
}

/** Chooses by the text of the answer, so tests read as what the model decided. */
export function pickByText(...answers: string[]): (req: ChoiceRequest) => number {
  const next = queue(answers);
  return (req) => {
    const want = next();
    const i = req.choices.indexOf(want);
    if (i < 0) throw new Error(`no choice '${want}' among ${JSON.stringify(req.choices)}`);
    return i;
  };
}

export function graph(nodes: GraphNode[], extra: Partial<Graph> = {}): Graph {
  return { format: "autograms-graph", version: 1, agent: "Test", globals: {}, functions: {}, nodes, ...extra };
}

export function fixture(name: string): Graph {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), "utf8")) as Graph;
}

export function roundTrip<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

export function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

export function collect(): { events: TraceEvent[]; trace: (e: TraceEvent) => void } {
  const events: TraceEvent[] = [];
  return { events, trace: (e) => events.push(e) };
}

export const loc = (line: number, column = 5) => ({ line, column, endLine: line, endColumn: column + 10 });

/** A node with defaults for the fields tests do not care about (ends the run, empty instruction). */
export const n = (node: Partial<GraphNode> & { name: string; action: GraphNode["action"] }): GraphNode =>
  ({ transitions: ["quit"], instruction: "", ...node }) as GraphNode;
