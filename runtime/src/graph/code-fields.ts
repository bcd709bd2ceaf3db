/**
 * The parts of a node the sandbox evaluates, checked with the sandbox's own parser when a graph
 * is validated: a graph whose code cannot run is refused when it is loaded, not at the node.
 */
import { checkCode, surfaceProblems } from "../sandbox/index.js";
import { parseCallInstruction } from "./call-instruction.js";
import type { GraphNode } from "./types.js";
import { isFunctionKind, parseTarget } from "./vocabulary/index.js";

export interface CodeProblem {
  /** JSON pointer below the node: `instruction`, `boolean_condition`, `transitions/1`. */
  field: string;
  message: string;
  /** Where in the field's code, for what the evaluator does not offer. */
  offset?: number;
}

/** The code a node holds, with the field it is in: what the runtime would evaluate. */
export function codeFields(node: GraphNode): { field: string; code: string; what: string }[] {
  const out: { field: string; code: string; what: string }[] = [];
  if (node.setup !== undefined) out.push({ field: "setup", code: node.setup, what: "setup" });
  if (node.action === "code" && node.instruction !== undefined)
    out.push({ field: "instruction", code: node.instruction, what: "code" });
  if (isFunctionKind(node.action) && node.instruction !== undefined) {
    // The call's form is checked where the program is built; here its arguments, as evaluated.
    const call = parseCallInstruction(node.instruction);
    if (call && call.args !== "[]") out.push({ field: "instruction", code: call.args, what: "call arguments" });
  }
  if (node.boolean_condition !== undefined)
    out.push({ field: "boolean_condition", code: node.boolean_condition, what: "boolean_condition" });
  node.transitions.forEach((t, i) => {
    const target = parseTarget(t);
    if (target.kind === "return" && target.expr !== undefined)
      out.push({ field: `transitions/${i}`, code: target.expr, what: "return expression" });
  });
  return out;
}

/**
 * What the evaluator would refuse in a node's code: its syntax, or what it uses that the
 * evaluator does not offer. With `callable` (the names of the tools the graph's code may call),
 * also a call of a function that exists nowhere; without it, calls are left to the Agent, which
 * may be given tools the graph does not list.
 */
export function codeProblems(node: GraphNode, callable?: ReadonlySet<string>): CodeProblem[] {
  const problems: CodeProblem[] = [];
  for (const { field, code, what } of codeFields(node)) {
    const error = checkCode(code);
    if (error) {
      const at = error.line === undefined ? "" : ` (at ${error.line}:${error.column})`;
      problems.push({
        field,
        message: `${what} '${short(code)}' is not code the evaluator runs: ${error.message}${at}`,
      });
      continue;
    }
    for (const p of surfaceProblems(code, callable)) {
      problems.push({
        field,
        message: `${what} '${short(code)}': ${p.message} (at character ${p.start + 1})`,
        offset: p.start,
      });
    }
  }
  return problems;
}

function short(text: string): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > 60 ? `${flat.slice(0, 59)}…` : flat;
}
