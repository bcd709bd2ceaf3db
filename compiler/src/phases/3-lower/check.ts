import { candidateOf, parseTarget, targetExists, type GraphNode, type Loc } from "@autograms/graph";
import { codeProblems } from "@autograms/sandbox";
import type { Diagnostics } from "../../diagnostics/diagnostic.js";
import { didYouMean } from "../../diagnostics/suggest.js";
import type { CodeAt } from "../2-analyze/ir.js";
import type { WrittenTarget } from "./context.js";

/** Checks that need every node: unique names, and that each written transition leads somewhere. */
export function checkNames(
  nodes: GraphNode[],
  written: WrittenTarget[],
  nameLocs: Map<number, Loc>,
  diagnostics: Diagnostics,
): void {
  const first = new Map<string, GraphNode>();
  for (const [index, node] of nodes.entries()) {
    const earlier = first.get(node.name);
    if (!earlier) {
      first.set(node.name, node);
      continue;
    }
    const where = earlier.loc ? ` (first at line ${earlier.loc.line})` : "";
    const at = nameLocs.get(index) ?? node.loc;
    if (at) diagnostics.report("duplicate_name", "two_nodes", at, { name: node.name, where });
  }
  for (const { target, node, loc } of written) {
    if (targetExists(target, (name) => first.has(name))) continue;
    const hint = didYouMean(target, first.keys());
    diagnostics.report("transition_to_missing_node", "transitions_does", loc, { node, target, hint });
  }
}

/**
 * Every piece of code the graph holds, wherever it came from (a TypeScript expression, a string
 * field such as `boolean_condition` or a `return <expr>` transition), checked against what the
 * evaluator runs and offers, and the agent's tools: what compiles, runs. Code from TypeScript
 * was checked at its column already; what is left is reported where its string was written
 * (at the problem's column when the string holds the code as it is), else at its node.
 */
export function checkNodeCode(
  nodes: GraphNode[],
  codeLocs: ReadonlyMap<number, Record<string, CodeAt>>,
  tools: ReadonlySet<string>,
  diagnostics: Diagnostics,
): void {
  for (const [index, node] of nodes.entries()) {
    if (!node.loc) continue;
    for (const problem of codeProblems(node, tools)) {
      const written = codeLocs.get(index)?.[problem.field];
      diagnostics.report("unsupported_syntax", "node_code", written ? problemLoc(written, problem.offset) : node.loc, {
        node: node.name,
        field: problem.field.replace("/", " "),
        message: problem.message,
      });
    }
  }
}

/** The problem's own column in a string of code, from its offset there, when that can be told. */
function problemLoc(written: CodeAt, offset: number | undefined): Loc {
  if (offset === undefined || written.exact === undefined) return written.loc;
  const column = written.exact.column + offset;
  // What the problem names starts there: a name, or a chain of them ('reply.match').
  const length = /^[\w$]+(?:\.[\w$]+)*/.exec(written.exact.code.slice(offset))?.[0].length ?? 1;
  return { line: written.loc.line, column, endLine: written.loc.line, endColumn: column + length };
}

/**
 * A node's placeholders that need agent calls are computed by nodes before it, which only falling
 * through runs: a node that a jump enters (a written transition naming it, through `X.*` or
 * `X.n` too, any `$var` transition for a named node, the runtime for an interjection) would be
 * entered without them. Reported at each such placeholder.
 */
export function checkSkippedCalls(
  nodes: GraphNode[],
  written: WrittenTarget[],
  callPlaceholders: Map<string, Loc[]>,
  explicitNames: Set<string>,
  diagnostics: Diagnostics,
): void {
  if (callPlaceholders.size === 0) return;
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const jumpedTo = (name: string): string | null => {
    for (const { target, node } of written) {
      const t = parseTarget(target);
      if (t.kind === "node" && t.name === name) return `'${node}' transitions to it by name`;
      if ((t.kind === "lettered" || t.kind === "numbered") && candidateOf(t.kind, name)?.base === t.base)
        return `'${node}' may enter it through '${target}'`;
      if (t.kind === "variable" && explicitNames.has(name))
        return `'${node}' transitions to '${target}', which may name it`;
    }
    return byName.get(name)?.condition_interjection !== undefined
      ? "it is an interjection, which the runtime enters by itself"
      : null;
  };
  for (const [name, locs] of callPlaceholders) {
    const why = jumpedTo(name);
    if (why === null) continue;
    for (const loc of locs) {
      diagnostics.report("conditional_agent_call", "placeholder_node", loc, { name, why });
    }
  }
}
