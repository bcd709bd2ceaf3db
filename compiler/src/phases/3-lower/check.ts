import { candidateOf, nodeNameFindings, parseTarget, type GraphNode, type Loc } from "@autograms/graph";
import { codeProblems } from "@autograms/sandbox";
import type { Diagnostics } from "../../diagnostics/diagnostic.js";
import { didYouMean } from "../../diagnostics/suggest.js";
import type { CodeAt } from "../2-analyze/ir.js";
import type { WrittenTarget } from "./context.js";

/**
 * The graph's rules among its nodes (unique names, transitions that lead to a node), reported
 * where they were written: a name at the name, a transition at the transition, and only the
 * transitions the author wrote (the compiler's own, "next" among them, lead to nodes it made).
 */
export function checkNames(
  nodes: GraphNode[],
  written: WrittenTarget[],
  nameLocs: Map<number, Loc>,
  diagnostics: Diagnostics,
): void {
  const findings = nodeNameFindings(nodes);
  if (findings.length === 0) return;
  const writtenAt = new Map(written.map((w) => [`${w.index}/${w.transition}`, w.loc]));
  let names: Set<string> | undefined;
  for (const f of findings) {
    const node = nodes[f.node]!;
    if (f.rule === "duplicate_name") {
      const first = nodes[f.first]!;
      const where = first.loc ? ` (first at line ${first.loc.line})` : "";
      const at = nameLocs.get(f.node) ?? node.loc;
      if (at) diagnostics.report("duplicate_name", "two_nodes", at, { name: node.name, where });
      continue;
    }
    const at = writtenAt.get(`${f.node}/${f.transition}`);
    if (!at) continue;
    names ??= new Set(nodes.map((n) => n.name));
    const hint = didYouMean(f.target, names);
    diagnostics.report("transition_to_missing_node", "transitions_does", at, {
      node: node.name,
      target: f.target,
      hint,
    });
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
