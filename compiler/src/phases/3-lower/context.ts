import type { GraphNode, Loc } from "@autograms/graph";
import type { Diagnostics } from "../../diagnostics/diagnostic.js";
import type { CodeAt, FunctionIR, Stmt } from "../2-analyze/ir.js";
import type { Namer } from "./names.js";
import type { Target } from "./target.js";

/** A node whose transitions may still point at labels. */
export type PendingNode = Omit<GraphNode, "transitions"> & { transitions: Target[] };

/**
 * A transition written by the agent's author, checked once every node exists: `index` is its
 * node's index in `nodes` and `transition` its own in the node's transitions, where the graph's
 * findings point.
 */
export interface WrittenTarget {
  target: string;
  node: string;
  index: number;
  transition: number;
  loc: Loc;
}

/** Where break and continue go inside a loop, a switch or a labelled block. */
export interface JumpScope {
  kind: "loop" | "switch" | "block";
  labels: string[];
  breakTo: Target;
  continueTo?: Target;
}

export interface LowerContext {
  /**
   * Lowers the statements nested in a statement (its body, a test's prelude). Reached through the
   * context, as Svelte's visitors call `context.visit`, so the statement lowerings do not import
   * the dispatcher that imports them.
   */
  lowerBlock(stmts: readonly Stmt[], prefix: string, next: Target, ctx: LowerContext): Target;
  fn: FunctionIR;
  namer: Namer;
  nodes: PendingNode[];
  written: WrittenTarget[];
  jumps: JumpScope[];
  /** Where each statement is entered: what the reachability check looks up. */
  entries: Map<Stmt, Target>;
  /** Names the author gave nodes, which a `$var` transition may name at run time. */
  explicitNames: Set<string>;
  /** Nodes whose placeholders need agent calls run before them: where each such placeholder is. */
  callPlaceholders: Map<string, Loc[]>;
  /** Where a node's name was written, by the node's index in `nodes`. */
  nameLocs: Map<number, Loc>;
  /** Where a node's string fields of code were written, by the node's index and the field's pointer. */
  codeLocs: Map<number, Record<string, CodeAt>>;
  diagnostics: Diagnostics;
  /** Where the end of the function goes: `return`, or `quit` for main. */
  end: "return" | "quit";
}
