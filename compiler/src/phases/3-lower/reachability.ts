import { candidates, parseTarget, type GraphNode, type Loc } from "@autograms/graph";
import type { Diagnostics } from "../../diagnostics/diagnostic.js";
import type { FunctionIR, Stmt } from "../2-analyze/ir.js";
import { resolve, type Target } from "./target.js";

/**
 * Warns at the first statement of each stretch of code that nothing leads to. What is reached
 * is read off the finished graph, so every way in counts as it runs: a jump by name, the
 * statement a `break` lands on, a loop going round, an interjection. A statement is reached
 * when its entry node is.
 */
export function warnUnreachable(
  functions: readonly FunctionIR[],
  nodes: readonly GraphNode[],
  entries: Map<Stmt, Target>,
  explicitNames: Set<string>,
  diagnostics: Diagnostics,
  source: string,
): void {
  const names = new Set(nodes.map((n) => n.name));
  const reached = reachable(nodes, functions, explicitNames, names);
  let lines: string[] | undefined;
  for (const fn of functions) {
    let inDeadStretch = false;
    const walk = (stmts: readonly Stmt[]): void => {
      for (const stmt of stmts) {
        const entry =
          stmt.kind === "break" || stmt.kind === "continue" || stmt.kind === "block" ? undefined : entries.get(stmt);
        const candidates = entry === undefined ? [] : successors(resolve(entry), names);
        // Statements that make no node of their own (a jump, an empty labelled block) say nothing.
        if (candidates.length) {
          const live = candidates.some((c) => reached.has(c));
          if (!live && !inDeadStretch) {
            lines ??= source.split(/\r\n|[\n\r\u2028\u2029]/);
            diagnostics.report("unreachable_code", "statement_before", firstLine(stmt.loc, lines));
          }
          inDeadStretch = !live;
        }
        for (const body of bodiesOf(stmt)) walk(body);
      }
    };
    walk(fn.body);
  }
}

/** Nodes a run can enter: from main, any function's entry, or an interjection, along transitions. */
function reachable(
  nodes: readonly GraphNode[],
  functions: readonly FunctionIR[],
  explicitNames: Set<string>,
  names: Set<string>,
): Set<string> {
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const roots = [
    ...functions.map((f) => f.name),
    ...nodes.filter((n) => n.condition_interjection !== undefined).map((n) => n.name),
  ];
  // A `$var` transition goes wherever the variable says: any node the author named may be meant.
  if (nodes.some((n) => n.transitions.some((t) => parseTarget(t).kind === "variable"))) roots.push(...explicitNames);
  const seen = new Set<string>();
  const queue = roots.filter((r) => byName.has(r));
  while (queue.length) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    for (const target of byName.get(name)!.transitions)
      queue.push(...successors(target, names).filter((s) => !seen.has(s)));
  }
  return seen;
}

/** The nodes a transition target may lead to, as the runtime resolves it. */
function successors(target: string, names: Set<string>): string[] {
  const t = parseTarget(target);
  switch (t.kind) {
    case "quit":
    case "return":
    case "variable":
      return [];
    case "lettered":
    case "numbered":
      return candidates(t.kind, t.base, (name) => names.has(name));
    case "node":
      return names.has(t.name) ? [t.name] : [];
  }
}

/** The blocks a statement runs (its own conditions and steps aside): where a dead stretch may go on. */
function bodiesOf(stmt: Stmt): Stmt[][] {
  switch (stmt.kind) {
    case "if":
      return stmt.branches.map((b) => b.body);
    case "switch":
      return stmt.clauses.map((c) => c.body);
    case "while":
    case "do_while":
    case "for":
    case "for_of":
    case "block":
      return [stmt.body];
    default:
      return [];
  }
}

/** A statement's range cut to its first line, so the code frame shows where it starts. */
function firstLine(loc: Loc, lines: string[]): Loc {
  if (loc.endLine === loc.line) return loc;
  const text = lines[loc.line - 1] ?? "";
  return {
    line: loc.line,
    column: loc.column,
    endLine: loc.line,
    endColumn: Math.max(loc.column, text.trimEnd().length + 1),
  };
}
