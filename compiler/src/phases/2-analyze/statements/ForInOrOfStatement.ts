import type TS from "typescript";
import { typescript } from "../../1-parse/typescript.js";
import { expressionValue, printCode } from "../expressions/code.js";
import { loc, report, type FunctionContext } from "../context.js";
import type { Stmt } from "../ir.js";
import { headerKey } from "./header.js";

/** for...of walks an array (or string) by index; for...in walks `Object.keys(...)`. */
export function visitForInOrOfStatement(
  node: TS.ForOfStatement | TS.ForInStatement,
  ctx: FunctionContext,
  out: Stmt[],
  labels: string[],
): void {
  const ts = typescript();
  const isOf = ts.isForOfStatement(node);
  if (isOf && node.awaitModifier) report(ctx, "unsupported_syntax", "for_await", node.awaitModifier);
  const prelude: Stmt[] = [];
  let target: string;
  let declare: "let" | "const" | undefined;
  if (ts.isVariableDeclarationList(node.initializer)) {
    target = printCode(node.initializer.declarations[0]!.name, ctx, prelude);
    declare = node.initializer.flags & ts.NodeFlags.Const ? "const" : "let";
  } else {
    target = printCode(node.initializer, ctx, prelude);
  }
  if (prelude.length) report(ctx, "conditional_agent_call", "loop_variable", node.initializer);
  const iterable = expressionValue(node.expression, ctx);
  if (!isOf) iterable.code = `Object.keys(${iterable.code})`;
  out.push({
    kind: "for_of",
    construct: isOf ? "for_of" : "for_in",
    loc: loc(ctx, node),
    key: headerKey(ctx, node, node.statement),
    labels,
    iterable,
    target,
    ...(declare ? { declare } : {}),
    body: ctx.visit.body(node.statement, ctx),
  });
}
