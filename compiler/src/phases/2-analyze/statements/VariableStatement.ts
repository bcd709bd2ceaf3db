import type TS from "typescript";
import { typescript } from "../../1-parse/typescript.js";
import type { FunctionContext } from "../context.js";
import type { Stmt } from "../ir.js";
import { assignStatements } from "./assign.js";

/** `let x = e` / `const x = e` declare in the function's one scope at run time (`var` as `let`). */
export function visitVariableStatement(node: TS.VariableStatement, ctx: FunctionContext, out: Stmt[]): void {
  visitVariableDeclarationList(node.declarationList, ctx, out);
}

export function visitVariableDeclarationList(
  list: TS.VariableDeclarationList,
  ctx: FunctionContext,
  out: Stmt[],
): void {
  const ts = typescript();
  const whole = list.declarations.length === 1 && ts.isVariableStatement(list.parent);
  const keyword = list.flags & ts.NodeFlags.Const ? "const" : "let";
  for (const declaration of list.declarations) {
    assignStatements(declaration.name, declaration.initializer, whole ? list.parent : declaration, ctx, out, keyword);
  }
}
