import { isFunctionKind, type Loc } from "@autograms/graph";
import { checkCode } from "@autograms/sandbox";
import type { Diagnostics } from "../../diagnostics/diagnostic.js";
import type { Expr, Stmt } from "./ir.js";

/**
 * Every piece of code made from the agent's expressions (code nodes, conditions, call
 * arguments, loop variables) must be code the runtime's evaluator accepts; what it refuses
 * (`new`, regular expressions, ...) is reported where the agent wrote it.
 */
export function checkStatementsCode(stmts: readonly Stmt[], diagnostics: Diagnostics): void {
  const check = (code: string, loc: Loc) => {
    const error = checkCode(code);
    if (error)
      diagnostics.report("unsupported_syntax", "evaluator_does", loc, {
        errorMessage: error.message,
        code: abbreviate(code),
      });
  };
  const expr = (value: Expr, loc: Loc) => {
    checkStatementsCode(value.prelude, diagnostics);
    check(value.code, loc);
  };
  for (const stmt of stmts) {
    switch (stmt.kind) {
      case "code":
        check(stmt.code, stmt.loc);
        break;
      case "node":
        if (isFunctionKind(stmt.fields.action)) check(stmt.fields.instruction as string, stmt.loc);
        for (const setup of stmt.setup ?? []) check(setup.code, setup.loc);
        break;
      case "return":
        if (stmt.value && "node" in stmt.value)
          checkStatementsCode([...stmt.value.prelude, stmt.value.node], diagnostics);
        else if (stmt.value) expr(stmt.value, stmt.loc);
        break;
      case "if":
        for (const branch of stmt.branches) {
          if (branch.test) expr(branch.test, branch.loc);
          checkStatementsCode(branch.body, diagnostics);
        }
        break;
      case "while":
      case "do_while":
        expr(stmt.test, stmt.loc);
        checkStatementsCode(stmt.body, diagnostics);
        break;
      case "for":
        checkStatementsCode([...stmt.init, ...stmt.update, ...stmt.body], diagnostics);
        if (stmt.test) expr(stmt.test, stmt.loc);
        break;
      case "for_of":
        expr(stmt.iterable, stmt.loc);
        check(`${stmt.declare ?? ""} ${stmt.target} = []`, stmt.loc);
        checkStatementsCode(stmt.body, diagnostics);
        break;
      case "switch":
        expr(stmt.discriminant, stmt.loc);
        for (const clause of stmt.clauses) {
          if (clause.test) expr(clause.test, clause.loc);
          checkStatementsCode(clause.body, diagnostics);
        }
        break;
      case "block":
        checkStatementsCode(stmt.body, diagnostics);
        break;
      case "break":
      case "continue":
        break;
    }
  }
}

/** Code quoted in a message: one line, cut short. */
export function abbreviate(code: string, max = 60): string {
  const line = code.replace(/\s+/g, " ");
  return line.length > max ? `${line.slice(0, max - 3)}...` : line;
}
