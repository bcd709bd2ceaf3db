/**
 * The parts of a node the sandbox evaluates. Whether their code runs is the evaluator's to say
 * (`codeProblems` in @autograms/sandbox, which validation is given): the format only says where
 * code is.
 */
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
