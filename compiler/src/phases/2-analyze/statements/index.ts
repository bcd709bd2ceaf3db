import type TS from "typescript";
import { typescript } from "../../1-parse/typescript.js";
import { report, type FunctionContext } from "../context.js";
import type { Stmt } from "../ir.js";
import { visitBlock } from "./Block.js";
import { visitBreakOrContinueStatement } from "./BreakOrContinueStatement.js";
import { visitDoStatement } from "./DoStatement.js";
import { visitExpressionStatement } from "./ExpressionStatement.js";
import { visitForInOrOfStatement } from "./ForInOrOfStatement.js";
import { visitForStatement } from "./ForStatement.js";
import { visitIfStatement } from "./IfStatement.js";
import { visitLabeledStatement } from "./LabeledStatement.js";
import { visitReturnStatement } from "./ReturnStatement.js";
import { visitSwitchStatement } from "./SwitchStatement.js";
import { visitVariableStatement } from "./VariableStatement.js";
import { visitWhileStatement } from "./WhileStatement.js";

/** Analyzes statements in order, appending what they become to `out`. */
export function visitStatements(statements: readonly TS.Statement[], ctx: FunctionContext, out: Stmt[] = []): Stmt[] {
  for (const statement of statements) visitStatement(statement, ctx, out, []);
  return out;
}

/** A statement used as a body (`while (c) x++;` as well as `while (c) { ... }`). */
export function visitBody(statement: TS.Statement, ctx: FunctionContext): Stmt[] {
  const ts = typescript();
  return ts.isBlock(statement) ? visitStatements(statement.statements, ctx) : visitStatements([statement], ctx);
}

/** `labels`: the labels written in front of the statement (`outer: for (...)`). */
export function visitStatement(node: TS.Statement, ctx: FunctionContext, out: Stmt[], labels: string[]): void {
  const ts = typescript();
  if (ts.isExpressionStatement(node)) visitExpressionStatement(node, ctx, out);
  else if (ts.isVariableStatement(node)) visitVariableStatement(node, ctx, out);
  else if (ts.isIfStatement(node)) visitIfStatement(node, ctx, out);
  else if (ts.isWhileStatement(node)) visitWhileStatement(node, ctx, out, labels);
  else if (ts.isDoStatement(node)) visitDoStatement(node, ctx, out, labels);
  else if (ts.isForStatement(node)) visitForStatement(node, ctx, out, labels);
  else if (ts.isForOfStatement(node) || ts.isForInStatement(node)) visitForInOrOfStatement(node, ctx, out, labels);
  else if (ts.isSwitchStatement(node)) visitSwitchStatement(node, ctx, out, labels);
  else if (ts.isBreakOrContinueStatement(node)) visitBreakOrContinueStatement(node, ctx, out);
  else if (ts.isReturnStatement(node)) visitReturnStatement(node, ctx, out);
  else if (ts.isBlock(node)) visitBlock(node, ctx, out, labels);
  else if (ts.isLabeledStatement(node)) visitLabeledStatement(node, ctx, out, labels);
  else if (ts.isEmptyStatement(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return;
  else {
    const message = unsupported(node);
    if (message) report(ctx, "unsupported_syntax", message, node);
    else report(ctx, "unsupported_syntax", "statement", node, { kind: ts.SyntaxKind[node.kind] });
  }
}

/** The statements refused with a message of their own (the others by their syntax kind). */
function unsupported(
  node: TS.Statement,
): "try_catch" | "throw" | "function_declaration" | "class_declaration" | "with" | "debugger" | "enum" | null {
  const ts = typescript();
  if (ts.isTryStatement(node)) return "try_catch";
  if (ts.isThrowStatement(node)) return "throw";
  if (ts.isFunctionDeclaration(node)) return "function_declaration";
  if (ts.isClassDeclaration(node)) return "class_declaration";
  if (ts.isWithStatement(node)) return "with";
  if (ts.isDebuggerStatement(node)) return "debugger";
  if (ts.isEnumDeclaration(node)) return "enum";
  return null;
}
