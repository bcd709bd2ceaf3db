import type { GraphNode, Loc } from "@autograms/runtime";
import type { Diagnostics } from "../../diagnostics/diagnostic.js";
import { didYouMean } from "../../diagnostics/suggest.js";
import type { WrittenTarget } from "./context.js";

/** Checks that need every node: unique names, and that each written transition leads somewhere. */
export function checkNames(nodes: GraphNode[], written: WrittenTarget[], nameLocs: Map<number, Loc>, diagnostics: Diagnostics): void {
  const first = new Map<string, GraphNode>();
  for (const [index, node] of nodes.entries()) {
    const earlier = first.get(node.name);
    if (!earlier) {
      first.set(node.name, node);
      continue;
    }
    const where = earlier.loc ? ` (first at line ${earlier.loc.line})` : "";
    const at = nameLocs.get(index) ?? node.loc;
    if (at) diagnostics.report("duplicate_name", `two nodes are named '${node.name}'${where}: node names must be unique`, at);
  }
  for (const { target, node, loc } of written) {
    if (targetExists(target, first)) continue;
    const hint = didYouMean(target, first.keys());
    diagnostics.report("transition_to_missing_node", `node '${node}' transitions to '${target}', which does not exist${hint}`, loc);
  }
}

function targetExists(target: string, names: Map<string, GraphNode>): boolean {
  if (target === "quit" || target === "return" || target.startsWith("return ") || target.startsWith("$")) return true;
  if (target.endsWith(".*")) return names.has(`${target.slice(0, -2)}.a`);
  if (target.endsWith(".n")) return names.has(`${target.slice(0, -2)}.1`);
  return names.has(target);
}
