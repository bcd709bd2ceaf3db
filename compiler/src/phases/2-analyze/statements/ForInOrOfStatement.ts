import type TS from "typescript";
import { typescript } from "../../1-parse/typescript.js";
import { expressionValue, printCode } from "../expressions/code.js";
import { loc, report, type FunctionContext } from "../context.js";
import type { Simple, Stmt } from "../ir.js";
import { headerKey } from "./header.js";
import { visitBody } from "./index.js";

/** for...of walks an array (or string) by index; for...in walks `Object.keys(...)`. */
export function visitForInOrOfStatement(node: TS.ForOfStatement | TS.ForInStatement, ctx: FunctionContext, out: Stmt[], labels: string[]): void {
  const ts = typescript();
  const isOf = ts.isForOfStatement(node);
  if (isOf && node.awaitModifier) report(ctx, "unsupported_syntax", "for await", node.awaitModifier);
  const prelude: Simple[] = [];
  let target: string;
  if (ts.isVariableDeclarationList(node.initializer)) {
    const declaration = node.initializer.declarations[0]!;
    target = printCode(declaration.name, ctx, prelude);
  } else {
    target = printCode(node.initializer, ctx, prelude);
  }
  if (prelude.length) report(ctx, "conditional_agent_call", "an agent call in a loop variable", node.initializer);
  if (/^\{/.test(target)) target = `(${target})`;
  const iterable = expressionValue(node.expression, ctx);
  if (!isOf) iterable.code = `Object.keys(${iterable.code})`;
  out.push({
    kind: "for_of", construct: isOf ? "for_of" : "for_in", loc: loc(ctx, node), key: headerKey(ctx, node, node.statement),
    labels, iterable, target, body: visitBody(node.statement, ctx),
  });
}
