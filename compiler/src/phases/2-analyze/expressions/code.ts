import type TS from "typescript";
import { typescript } from "../../1-parse/typescript.js";
import { keyOf, report, type FunctionContext } from "../context.js";
import type { Expr, NodeStmt, Simple } from "../ir.js";
import { skipTypeWrappers, thisMember } from "../literal.js";
import { agentCallOf, visitAgentCall } from "./CallExpression.js";
import { tempName } from "./temp.js";

/** An analyzed expression: evaluator code, or one agent call whose output is the value. */
export type Analyzed = { prelude: Simple[]; code: string; call?: undefined } | { prelude: Simple[]; call: NodeStmt; code?: undefined };

export function analyzeExpression(node: TS.Expression, ctx: FunctionContext): Analyzed {
  const ts = typescript();
  const inner = skipTypeWrappers(node);
  if (ts.isCallExpression(inner) && agentCallOf(inner, ctx)) {
    const { prelude, node: call } = visitAgentCall(inner, ctx);
    return { prelude, call };
  }
  const prelude: Simple[] = [];
  return { prelude, code: printCode(node, ctx, prelude) };
}

/** The expression as a value: an agent call's output goes to a temporary first. */
export function valueOf(analyzed: Analyzed, ctx: FunctionContext, node: TS.Node): Expr {
  if (analyzed.call === undefined) return { prelude: analyzed.prelude, code: analyzed.code };
  const temp = tempName(ctx, keyOf(ctx, node));
  checkHasValue(analyzed.call, ctx, node);
  return { prelude: [...analyzed.prelude, { ...analyzed.call, assign: temp }], code: temp };
}

export function expressionValue(node: TS.Expression, ctx: FunctionContext): Expr {
  return valueOf(analyzeExpression(node, ctx), ctx, node);
}

/** Prompt nodes produce no output; using one as a value is a mistake worth catching. */
export function checkHasValue(call: NodeStmt, ctx: FunctionContext, node: TS.Node): void {
  if (/^(set|append)_(user_)?prompt$/.test(call.fields.action)) {
    report(ctx, "void_node_value", `a ${call.fields.action} node produces no value to use`, node);
  }
}

let printer: TS.Printer | undefined;

/**
 * Evaluator text of a TypeScript expression (or binding pattern): types stripped, `this.x`
 * turned into the variable `x`, and every agent call inside hoisted into `prelude` with a
 * temporary standing in for its value.
 */
export function printCode(node: TS.Node, ctx: FunctionContext, prelude: Simple[]): string {
  const ts = typescript();
  const { agent } = ctx;
  const logical = new Set([
    ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken,
    ts.SyntaxKind.AmpersandAmpersandEqualsToken, ts.SyntaxKind.BarBarEqualsToken, ts.SyntaxKind.QuestionQuestionEqualsToken,
  ]);

  const transformer: TS.TransformerFactory<TS.Node> = (context) => {
    const factory = context.factory;
    // `conditional` names where the code might not run, since a hoisted call always would.
    const visit = (node: TS.Node, conditional: string | null): TS.Node | undefined => {
      if (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isNonNullExpression(node) || ts.isTypeAssertionExpression(node)) {
        return visit(node.expression, conditional);
      }
      if (ts.isExpressionWithTypeArguments(node)) return visit(node.expression, conditional);
      if (ts.isTypeNode(node) || ts.isTypeParameterDeclaration(node)) return undefined;
      if (ts.isCallExpression(node) && agentCallOf(node, ctx)) {
        if (conditional) {
          report(ctx, "conditional_agent_call", `an agent call in ${conditional} would always run once hoisted out of the expression: give it a statement of its own (inside an if, where it should only run sometimes)`, node);
        }
        const hoisted = visitAgentCall(node, ctx);
        const temp = tempName(ctx, keyOf(ctx, node));
        checkHasValue(hoisted.node, ctx, node);
        prelude.push(...hoisted.prelude, { ...hoisted.node, assign: temp });
        return factory.createIdentifier(temp);
      }
      const member = thisMember(node);
      if (member !== null) {
        const name = member;
        if (agent.methods.has(name)) {
          report(ctx, "not_a_method", `'this.${name}' used as a value: agent functions can only be called, 'this.${name}(...)'`, node);
        }
        return factory.createIdentifier(name);
      }
      if (node.kind === ts.SyntaxKind.ThisKeyword) {
        report(ctx, "unsupported_syntax", "'this' on its own: use 'this.field' or 'this.method(...)'", node);
        return node;
      }
      if (node.kind === ts.SyntaxKind.SuperKeyword) {
        report(ctx, "unsupported_syntax", "'super' in an agent", node);
        return node;
      }
      if (ts.isIdentifier(node)) {
        if (!isValueReference(node)) return node;
        if (agent.tools.has(node.text)) agent.usedTools.add(node.text);
        else if (agent.api.has(node.text) && !ts.isCallExpression(node.parent)) {
          report(ctx, "unsupported_syntax", `'${node.text}' used as a value: the agent language's functions can only be called`, node);
        }
        return node;
      }
      if (ts.isClassExpression(node) || ts.isAwaitExpression(node) || ts.isYieldExpression(node)) {
        report(ctx, "unsupported_syntax", `${ts.isClassExpression(node) ? "a class expression" : ts.isAwaitExpression(node) ? "'await'" : "'yield'"} in agent code`, node);
        return node;
      }
      if (ts.isBinaryExpression(node) && logical.has(node.operatorToken.kind)) {
        const op = node.operatorToken.getText(agent.file);
        return factory.updateBinaryExpression(node, visit(node.left, conditional) as TS.Expression, node.operatorToken,
          visit(node.right, conditional ?? `the right operand of '${op}'`) as TS.Expression);
      }
      if (ts.isConditionalExpression(node)) {
        const branch = conditional ?? "a branch of '?:'";
        return factory.updateConditionalExpression(node, visit(node.condition, conditional) as TS.Expression, node.questionToken,
          visit(node.whenTrue, branch) as TS.Expression, node.colonToken, visit(node.whenFalse, branch) as TS.Expression);
      }
      if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) {
        return ts.visitEachChild(node, (child) => visit(child, conditional ?? "a callback"), context);
      }
      if (ts.isCallExpression(node) && node.questionDotToken) {
        return ts.visitEachChild(node, (child) => visit(child, child === node.expression ? conditional : conditional ?? "an optional call's arguments"), context);
      }
      return ts.visitEachChild(node, (child) => visit(child, conditional), context);
    };
    return (root) => visit(root, null) ?? root;
  };

  const result = ts.transform(node, [transformer]);
  try {
    printer ??= ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });
    return printer.printNode(ts.EmitHint.Unspecified, result.transformed[0]!, agent.file);
  } finally {
    result.dispose();
  }
}

/** An identifier read as a value (not a property name, a declaration's name or a label). */
function isValueReference(node: TS.Identifier): boolean {
  const ts = typescript();
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false;
  if (ts.isPropertyAssignment(parent) && parent.name === node) return false;
  return true;
}

