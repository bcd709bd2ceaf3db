/**
 * Checks a cases file against the agent before anything runs: every node it names exists (by name
 * or source line), every variable is one the agent has, every regex and schema compiles. The
 * first problem is thrown at its line, so a slip costs no model calls.
 */
import { validatorOf } from "@autograms/graph";
import type { JsonValue } from "@autograms/graph";
import type { AgentNames } from "./agent-names.js";
import type { CasesFile } from "./cases.js";
import { fileProblem } from "./messages.js";

export function checkCases(cases: CasesFile, names: AgentNames): void {
  const { file } = cases;
  for (const c of cases.cases) {
    for (const name of Object.keys(c.vars)) {
      if (!names.globals.includes(name)) throw fileProblem("not_global", { file, line: c.line }, name, names.globals);
    }
    if (c.simulate) {
      const { reached = [], notReached = [] } = c.simulate.expect;
      for (const ref of [...reached, ...notReached]) checkNode(ref, c.line);
    }
    for (const turn of c.turns) {
      const { expect, lines } = turn;
      const at = (key: keyof typeof expect) => ({ file, line: lines[key] ?? turn.line });
      if (expect.node !== undefined) checkNode(expect.node, at("node").line);
      for (const ref of expect.path ?? []) checkNode(ref, at("path").line);
      for (const name of [...Object.keys(expect.vars ?? {}), ...Object.keys(expect.varsSchema ?? {})]) {
        if (!names.hasVariable(name))
          throw fileProblem("unknown_variable", at(expect.vars && name in expect.vars ? "vars" : "varsSchema"), name, [
            ...names.variables,
          ]);
      }
      for (const [name, schema] of Object.entries(expect.varsSchema ?? {})) {
        const v = validatorOf(schema as JsonValue);
        if (typeof v === "string") throw fileProblem("bad_schema", at("varsSchema"), name, v);
      }
      if (expect.reply?.regex !== undefined) {
        try {
          new RegExp(expect.reply.regex);
        } catch (err) {
          throw fileProblem("bad_regex", at("reply"), (err as Error).message);
        }
      }
    }
  }

  function checkNode(ref: string, line: number): void {
    const found = names.node(ref);
    if (found.ok) return;
    const at = { file, line };
    if (found.problem === "unknown_node") throw fileProblem("unknown_node", at, found.name);
    if (found.problem === "other_file") throw fileProblem("other_file", at, found.ref, found.file);
    throw fileProblem(found.problem, at, found.ref);
  }
}
