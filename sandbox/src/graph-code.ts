/**
 * A graph's code checked by the evaluator that will run it: a graph whose code cannot run is
 * refused when it is loaded, not at the node. The format (@autograms/graph) says where code is and
 * checks the rest; what this evaluator accepts is known only here.
 */
import {
  codeFields,
  validateGraphWith,
  type CodeProblem,
  type GraphNode,
  type GraphValidation,
} from "@autograms/graph";
import { checkCode } from "./evaluate.js";
import { surfaceProblems } from "./surface-check.js";

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

/** Schema check, then the checks a schema cannot express (names, targets, function table, code). */
export function validateGraph(value: unknown): GraphValidation {
  return validateGraphWith(value, (node) => codeProblems(node));
}

function short(text: string): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > 60 ? `${flat.slice(0, 59)}…` : flat;
}
