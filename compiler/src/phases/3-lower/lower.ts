import type { FunctionInfo, Graph, GraphNode, Loc } from "@autograms/graph";
import type { Diagnostics } from "../../diagnostics/diagnostic.js";
import type { AgentIR, CodeAt, Stmt } from "../2-analyze/ir.js";
import { lowerBlock } from "./block.js";
import { checkNames, checkNodeCode, checkSkippedCalls } from "./check.js";
import type { LowerContext, PendingNode, WrittenTarget } from "./context.js";
import { Namer } from "./names.js";
import { pushTransition } from "./node.js";
import { warnUnreachable } from "./reachability.js";
import { Label, resolve, type Target } from "./target.js";

/**
 * Phase 3: every function becomes an entry node named after it followed by its body's nodes;
 * main comes first and is the start. The result lacks only `source`.
 */
export function lower(ir: AgentIR, diagnostics: Diagnostics, source: string): Omit<Graph, "source"> {
  const nodes: PendingNode[] = [];
  const written: WrittenTarget[] = [];
  const entries = new Map<Stmt, Target>();
  const explicitNames = new Set<string>();
  const nameLocs = new Map<number, Loc>();
  const codeLocs = new Map<number, Record<string, CodeAt>>();
  const callPlaceholders = new Map<string, Loc[]>();
  const functions: Record<string, FunctionInfo> = {};
  const namer = new Namer();
  for (const fn of ir.functions) {
    const ctx: LowerContext = {
      lowerBlock,
      fn,
      namer,
      nodes,
      written,
      jumps: [],
      entries,
      explicitNames,
      nameLocs,
      codeLocs,
      callPlaceholders,
      diagnostics,
      end: fn.kind === "main" ? "quit" : "return",
    };
    const body = new Label();
    pushTransition(ctx, { name: fn.name, transitions: [body], loc: fn.loc, def_type: "function" });
    body.bind(lowerBlock(fn.body, fn.name, ctx.end, ctx));
    if (fn.kind !== "main") {
      functions[fn.name] = {
        kind: fn.kind,
        params: fn.params,
        ...(fn.required < fn.params.length ? { required: fn.required } : {}),
        ...(Object.keys(fn.defaults).length ? { defaults: fn.defaults } : {}),
        entry: fn.name,
        loc: fn.loc,
      };
    }
  }
  const resolved = nodes.map((node) => ({ ...node, transitions: node.transitions.map(resolve) }) as GraphNode);
  checkNames(resolved, written, nameLocs, diagnostics);
  checkSkippedCalls(resolved, written, callPlaceholders, explicitNames, diagnostics);
  checkNodeCode(resolved, codeLocs, new Set(Object.keys(ir.tools)), diagnostics);
  if (!diagnostics.hasErrors) warnUnreachable(ir.functions, resolved, entries, explicitNames, diagnostics, source);
  const graph: Omit<Graph, "source"> = {
    format: "autograms-graph",
    version: 1,
    agent: ir.className,
    start: "main",
    globals: ir.globals,
    functions,
    nodes: resolved,
  };
  if (Object.keys(ir.tools).length) graph.tools = ir.tools;
  if (Object.keys(ir.actions).length) graph.actions = ir.actions;
  return graph;
}
