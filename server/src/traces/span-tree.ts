/**
 * A turn's stored trace as a tree of spans: the turn, the nodes it went through (one span per
 * visit), and under each node its steps: model calls, tool calls, decisions, transitions and the
 * rest. A stored step has no clock time of its own, only what it waited for (`ms`: the model, a
 * tool); a span's `start` is therefore the sum of the waits before it, and the turn's time that
 * no wait accounts for (the agent's own computation, the store) is given as `otherMs`.
 */
import { z } from "zod";
import type { StoredTraceEvent } from "@autograms/runtime";
import type { TurnRecord } from "@autograms/store";
import type { Prices } from "../usage/prices.js";
import { priced, usageOf, usageTotal } from "../usage/totals.js";
import { madeCalls } from "./made-calls.js";

/** A span as `GET /api/runs/:id/spans` answers it (the page reads it too). */
export const Span = z
  .object({
    /** Unique within the run: `t3`, `t3.n2`, `t3.n2.s1`. */
    id: z.string(),
    kind: z.enum(["turn", "node", "model", "tool", "decision", "transition", "step"]),
    name: z.string(),
    start: z.number().meta({ description: "ms from the run's start: the waits before it, laid end to end" }),
    ms: z.number(),
    /** The node's name and place in the agent's source (node spans and their steps). */
    node: z.string().optional(),
    line: z.int().optional().meta({ description: "the node's line in the agent's source" }),
    input: z.unknown().optional(),
    output: z.unknown().optional(),
    attributes: z.record(z.string(), z.unknown()),
    get children() {
      return z.array(Span);
    },
  })
  .meta({ id: "Span" });
export type Span = z.infer<typeof Span>;
type SpanKind = Span["kind"];

/**
 * What a turn span is made from: the stored turn, or the steps a run streamed before it failed;
 * `start` in milliseconds from the run's start, `ms` how long the turn took (null: unknown, e.g. it failed).
 */
type TurnSteps = Pick<TurnRecord, "seq" | "user" | "reply" | "trace"> & {
  status: string;
  start: number;
  ms: number | null;
};

export function turnSpan(turn: TurnSteps, prices: Prices | undefined): Span {
  const id = `t${turn.seq}`;
  const nodes: Span[] = [];
  let at = turn.start;
  // A step's number among those that made calls: its index in the turn's replayed calls.
  let call = 0;
  for (const e of turn.trace) {
    let node = nodes[nodes.length - 1];
    if (!node || node.node !== e.node) {
      node = nodeSpan(`${id}.n${nodes.length + 1}`, e, at);
      nodes.push(node);
    }
    const step = stepSpan(`${node.id}.s${node.children.length + 1}`, e, at, prices);
    if (madeCalls(e)) step.attributes.call = call++;
    node.children.push(step);
    node.ms += step.ms;
    at += step.ms;
  }
  const waited = at - turn.start;
  const usage = usageTotal(turn.trace.map(usageOf), prices);
  return {
    id,
    kind: "turn",
    name: `turn ${turn.seq}`,
    start: turn.start,
    ms: turn.ms ?? waited,
    input: turn.user,
    output: turn.reply,
    attributes: {
      status: turn.status,
      steps: turn.trace.length,
      waitedMs: round(waited),
      ...(turn.ms !== null && { otherMs: round(Math.max(0, turn.ms - waited)) }),
      ...(usage && { usage }),
    },
    children: nodes,
  };
}

function nodeSpan(id: string, e: StoredTraceEvent, at: number): Span {
  const loc = e.loc as { line?: number } | null | undefined;
  return {
    id,
    kind: "node",
    name: e.node,
    start: at,
    ms: 0,
    node: e.node,
    ...(typeof loc?.line === "number" && { line: loc.line }),
    attributes: { action: e.action, ...(Array.isArray(e.stack) && { stack: e.stack }) },
    children: [],
  };
}

/** One step: its kind and name, what went in and came out, and the rest as attributes. */
function stepSpan(id: string, e: StoredTraceEvent, at: number, prices: Prices | undefined): Span {
  const { kind: _kind, node, loc: _loc, action: _action, stack: _stack, changes, ms, usage: _usage, ...rest } = e;
  const usage = usageOf(e);
  const attributes: Record<string, unknown> = {
    step: e.kind,
    ...(Array.isArray(changes) && changes.length > 0 && { changes }),
    ...(usage && { usage: priced(usage, prices) }),
  };
  const span = (kind: SpanKind, name: string, input: unknown, output: unknown, more: object = {}): Span => ({
    id,
    kind,
    name,
    start: at,
    ms: typeof ms === "number" ? ms : 0,
    node,
    ...(input !== undefined && { input }),
    ...(output !== undefined && { output }),
    attributes: { ...attributes, ...more },
    children: [],
  });
  const decisions = (e.decisions ?? []) as { purpose: string; choices: string[]; chosen: number }[];
  switch (e.kind) {
    case "generate": {
      const { output, raw, purpose, ...other } = rest as { output: unknown; raw?: string[]; purpose?: string };
      return span("model", `${purpose ?? "chat"} generation`, undefined, output, {
        ...other,
        ...(raw && raw.length > 1 && { raw }),
      });
    }
    case "custom": {
      const { hook, calls, ...other } = rest as { hook: string; calls: unknown[] };
      return span(calls.length > 0 ? "model" : "step", `${hook} hook`, calls.length > 0 ? calls : undefined, other);
    }
    case "tool_call": {
      const { tool, arguments: args, result, error, ...other } = rest as Record<string, unknown>;
      return span("tool", String(tool), jsonOrText(args), error === undefined ? result : undefined, {
        ...other,
        ...(error !== undefined && { error }),
      });
    }
    case "transition":
    case "quit":
    case "return": {
      const to = e.kind === "transition" ? String(rest.to) : e.kind;
      const { decisions: _d, ...other } = rest;
      if (decisions.length === 0) return span("transition", `→ ${to}`, undefined, undefined, other);
      return span(
        "decision",
        `${decisions[0]!.purpose} → ${to}`,
        decisions.map((d) => ({ purpose: d.purpose, choices: d.choices })),
        decisions.map((d) => d.choices[d.chosen] ?? d.chosen),
        other,
      );
    }
    case "user":
      return span("step", "user message", undefined, rest.text);
    case "log":
      return span("step", `print (${String(rest.level)})`, undefined, rest.text);
    case "code":
    case "setup":
      return span("step", e.kind, rest.code, e.kind === "code" ? rest.value : undefined);
    case "exact":
      return span("step", "exact text", undefined, rest.output);
    case "call":
      return span("step", `call ${String(rest.function)}`, rest.args, undefined);
    default:
      return span("step", e.kind, undefined, undefined, rest);
  }
}

/** A tool call's arguments as the model wrote them: their JSON value, or the text when it is not JSON. */
function jsonOrText(text: unknown): unknown {
  if (typeof text !== "string") return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const round = (ms: number) => Math.round(ms * 10) / 10;
