import type TS from "typescript";
import { RUNTIME_TOOLS } from "@autograms/graph";
import { typescript } from "../../1-parse/typescript.js";
import { abbreviate } from "../check-code.js";
import { RUNTIME_MODULE, keyOf, loc, report, type FunctionContext } from "../context.js";
import type { Analyzed, Expr, Stmt } from "../ir.js";
import { skipTypeWrappers, thisMember } from "../literal.js";
import { agentCallOf, visitAgentCall } from "./CallExpression.js";
import { checkHasValue } from "./has-value.js";
import { checkCallee, checkGlobal, newHint } from "./sandbox-surface.js";
import { tempName } from "./temp.js";

export function analyzeExpression(node: TS.Expression, ctx: FunctionContext): Analyzed {
  const ts = typescript();
  const inner = skipTypeWrappers(node);
  if (ts.isCallExpression(inner) && agentCallOf(inner, ctx)) {
    const { prelude, node: call } = visitAgentCall(inner, ctx);
    return { prelude, call };
  }
  const prelude: Stmt[] = [];
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

const CALLBACK = "a callback";

/** Operators whose right side may not run: `&&`, `||`, `??` (SHORT_CIRCUIT) and their assignments. */
let SHORT_CIRCUIT: Set<TS.SyntaxKind>;
let LOGICAL: Set<TS.SyntaxKind>;
let STRICT_EQUALITY: Set<TS.SyntaxKind>;
function initOperators(ts: typeof TS): void {
  STRICT_EQUALITY = new Set([ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken]);
  const { AmpersandAmpersandToken, BarBarToken, QuestionQuestionToken } = ts.SyntaxKind;
  SHORT_CIRCUIT = new Set([AmpersandAmpersandToken, BarBarToken, QuestionQuestionToken]);
  const { AmpersandAmpersandEqualsToken, BarBarEqualsToken, QuestionQuestionEqualsToken } = ts.SyntaxKind;
  LOGICAL = new Set([...SHORT_CIRCUIT, AmpersandAmpersandEqualsToken, BarBarEqualsToken, QuestionQuestionEqualsToken]);
}

/**
 * Evaluator text of a TypeScript expression (or binding pattern): the source text as written,
 * with types cut out, `this.x` turned into the variable `x`, and every agent call hoisted into
 * `prelude` with a temporary standing in for its value. Editing the text (rather than printing
 * a transformed tree) keeps the author's layout and costs little.
 */
export function printCode(node: TS.Node, ctx: FunctionContext, prelude: Stmt[]): string {
  const ts = typescript();
  if (!LOGICAL) initOperators(ts);
  const { agent } = ctx;
  const { file } = agent;
  const edits: { start: number; end: number; text: string }[] = [];
  const cut = (start: number, end: number, text = ""): void => {
    edits.push({ start, end, text });
  };
  const replaceNode = (node: TS.Node, text: string) => cut(node.getStart(file), node.end, text);
  /** `: T` after a name or a parameter list (the colon sits just before the type's full start). */
  const cutType = (type: TS.TypeNode | undefined) => type && cut(type.pos - 1, type.end);
  const cutAngles = (list: TS.NodeArray<TS.Node> | undefined) =>
    list && cut(list.pos - 1, file.text.indexOf(">", list.end) + 1);

  // `conditional` names where the code might not run, since a hoisted call always would.
  const visit = (node: TS.Node, conditional: string | null): void => {
    if (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isNonNullExpression(node)) {
      cut(node.expression.end, node.end);
      return visit(node.expression, conditional);
    }
    if (ts.isTypeAssertionExpression(node)) {
      cut(node.getStart(file), node.expression.getStart(file));
      return visit(node.expression, conditional);
    }
    if (ts.isTypeNode(node) && !ts.isExpressionWithTypeArguments(node)) return;
    if (ts.isCallExpression(node) && agentCallOf(node, ctx)) {
      if (conditional === CALLBACK) {
        report(ctx, "conditional_agent_call", "inside_callback", node);
      } else if (conditional) {
        report(ctx, "conditional_agent_call", "always_run", node, { conditional });
      }
      const hoisted = visitAgentCall(node, ctx);
      const temp = tempName(ctx, keyOf(ctx, node));
      checkHasValue(hoisted.node, ctx, node);
      prelude.push(...hoisted.prelude, { ...hoisted.node, assign: temp });
      return replaceNode(node, temp);
    }
    const member = thisMember(node);
    if (member !== null) {
      if (agent.methods.has(member)) {
        report(ctx, "not_a_method", "used_value", node, { member });
      }
      return replaceNode(node, member);
    }
    if (node.kind === ts.SyntaxKind.ThisKeyword) {
      return report(ctx, "unsupported_syntax", "this_alone", node);
    }
    if (node.kind === ts.SyntaxKind.SuperKeyword) return report(ctx, "unsupported_syntax", "super", node);
    // The evaluator refuses these too; named here, at the construct itself, rather than as a whole statement it refuses.
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      return report(ctx, "unsupported_syntax", "regular_expression", node, {
        text: abbreviate(node.getText(file), 40),
      });
    }
    if (ts.isNewExpression(node)) {
      return report(ctx, "unsupported_syntax", "new_evaluator", node, {
        expressionText: abbreviate(node.expression.getText(file), 40),
        newHint: newHint(node.expression.getText(file)),
      });
    }
    if (ts.isIdentifier(node)) {
      if (!isValueReference(node)) return;
      if (agent.tools.has(node.text)) agent.usedTools.add(node.text);
      else if (!agent.api.has(node.text)) checkGlobal(node, ctx);
      else if (agent.api.has(node.text)) {
        // Node-making calls never get here; any other runtime export has no implementation in the evaluator.
        const called = ts.isCallExpression(node.parent) && node.parent.expression === node;
        if (called)
          report(ctx, "unsupported_syntax", "runtime_call", node, {
            name: node.text,
            runtimeModule: RUNTIME_MODULE,
            tools: RUNTIME_TOOLS.join(", "),
          });
        else report(ctx, "unsupported_syntax", "runtime_value", node, { name: node.text });
      }
      return;
    }
    if (ts.isAwaitExpression(node)) return report(ctx, "unsupported_syntax", "await", node);
    if (ts.isClassExpression(node) || ts.isYieldExpression(node)) {
      return report(ctx, "unsupported_syntax", "expression_kind", node, {
        detail: ts.isClassExpression(node) ? "a class expression" : "'yield'",
      });
    }
    if (
      ts.isBinaryExpression(node) &&
      STRICT_EQUALITY.has(node.operatorToken.kind) &&
      (isUndefined(node.left) || isUndefined(node.right))
    ) {
      report(ctx, "undefined_comparison", "value_kept", node, { text: node.getText(file) });
    }
    if (ts.isBinaryExpression(node) && LOGICAL.has(node.operatorToken.kind)) {
      if (conditional === null && containsAgentCall(node.right, ctx)) {
        if (SHORT_CIRCUIT.has(node.operatorToken.kind)) return replaceNode(node, guardShortCircuit(node, ctx, prelude));
        const guarded = guardLogicalAssignment(node, ctx);
        if (!guarded) return;
        prelude.push(...guarded.statements);
        return replaceNode(node, guarded.target);
      }
      visit(node.left, conditional);
      return visit(node.right, conditional ?? `the right operand of '${node.operatorToken.getText(file)}'`);
    }
    if (ts.isConditionalExpression(node)) {
      if (conditional === null && (containsAgentCall(node.whenTrue, ctx) || containsAgentCall(node.whenFalse, ctx))) {
        return replaceNode(node, guardConditional(node, ctx, prelude));
      }
      visit(node.condition, conditional);
      visit(node.whenTrue, conditional ?? "a branch of '?:'");
      return visit(node.whenFalse, conditional ?? "a branch of '?:'");
    }
    if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) {
      cutAngles(node.typeParameters);
      cutType(node.type);
      for (const param of node.parameters) {
        if (param.questionToken) cut(param.questionToken.getStart(file), param.questionToken.end);
        cutType(param.type);
        visit(param.name, CALLBACK);
        if (param.initializer) visit(param.initializer, CALLBACK);
      }
      return visit(node.body, CALLBACK);
    }
    if (ts.isVariableDeclaration(node)) {
      if (node.exclamationToken) cut(node.exclamationToken.getStart(file), node.exclamationToken.end);
      cutType(node.type);
    }
    if (ts.isCallExpression(node) && isTryTool(node, ctx)) {
      // The sandbox calls tools by name, so the tool passed to tryTool is written as its name.
      cutAngles(node.typeArguments);
      const [first, ...rest] = node.arguments;
      const tool = first && skipTypeWrappers(first);
      if (!tool || !ts.isIdentifier(tool) || !agent.tools.has(tool.text)) {
        report(ctx, "unsupported_syntax", "trytool_takes", first ?? node);
      } else {
        agent.usedTools.add(tool.text);
        replaceNode(first!, JSON.stringify(tool.text));
      }
      visit(node.expression, conditional);
      for (const arg of rest) visit(arg, conditional);
      return;
    }
    if (ts.isCallExpression(node) || ts.isTaggedTemplateExpression(node) || ts.isExpressionWithTypeArguments(node)) {
      cutAngles(node.typeArguments);
    }
    if (ts.isCallExpression(node)) checkCallee(node, ctx);
    if (ts.isCallExpression(node) && node.questionDotToken) {
      visit(node.expression, conditional);
      for (const arg of node.arguments) visit(arg, conditional ?? "an optional call's arguments");
      return;
    }
    ts.forEachChild(node, (child) => {
      visit(child, conditional);
    });
  };
  visit(node, null);

  const start = node.getStart(file);
  if (edits.length === 0) return file.text.slice(start, node.end);
  edits.sort((a, b) => a.start - b.start);
  let text = "";
  let at = start;
  for (const edit of edits) {
    text += file.text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return text + file.text.slice(at, node.end);
}

/** `x ||= call()`, `x &&= call()`, `x ??= call()` written as a statement: only the guarded assignment. */
export function guardedAssignmentStatement(node: TS.Expression, ctx: FunctionContext): Stmt[] | null {
  const ts = typescript();
  if (!LOGICAL) initOperators(ts);
  if (
    !ts.isBinaryExpression(node) ||
    !LOGICAL.has(node.operatorToken.kind) ||
    SHORT_CIRCUIT.has(node.operatorToken.kind)
  )
    return null;
  if (!containsAgentCall(node.right, ctx)) return null;
  return guardLogicalAssignment(node, ctx)?.statements ?? [];
}

/** Whether evaluating the expression makes a node (callbacks aside: a call there is an error). */
function containsAgentCall(node: TS.Node, ctx: FunctionContext): boolean {
  const ts = typescript();
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return false;
  if (ts.isCallExpression(node) && agentCallOf(node, ctx)) return true;
  return ts.forEachChild(node, (child) => containsAgentCall(child, ctx) || undefined) ?? false;
}

/**
 * `a && call()` (and `||`, `??`) with the call run only when JavaScript would run it: the left
 * value goes to a temporary, and an if computes the right side into it when needed.
 */
function guardShortCircuit(node: TS.BinaryExpression, ctx: FunctionContext, prelude: Stmt[]): string {
  const ts = typescript();
  const at = { loc: loc(ctx, node), key: keyOf(ctx, node) };
  const left = printCode(node.left, ctx, prelude);
  const temp = tempName(ctx, at.key);
  prelude.push({ kind: "code", ...at, code: `let ${temp} = ${left}` });
  const kind = node.operatorToken.kind;
  const [construct, test] =
    kind === ts.SyntaxKind.AmpersandAmpersandToken
      ? ["and", temp]
      : kind === ts.SyntaxKind.BarBarToken
        ? ["or", `!${temp}`]
        : ["nullish", `${temp} === null || ${temp} === undefined`];
  const body = assignInto(temp, node.right, ctx);
  prelude.push({ kind: "if", ...at, construct, branches: [{ test: { prelude: [], code: test }, body, loc: at.loc }] });
  return temp;
}

/**
 * `x ??= call()` (and `||=`, `&&=`) as `if (x == null) { x = call() }`: the call runs only when
 * JavaScript would run it, and the target then holds the expression's value. The target is read
 * twice, so it must be a variable or a member whose keys have no effects; null when it is not
 * (reported).
 */
function guardLogicalAssignment(
  node: TS.BinaryExpression,
  ctx: FunctionContext,
): { statements: Stmt[]; target: string } | null {
  const ts = typescript();
  const operator = node.operatorToken.getText(ctx.agent.file);
  if (!isPlainTarget(node.left)) {
    report(ctx, "conditional_agent_call", "right_whose", node.left, { operator });
    return null;
  }
  const at = { loc: loc(ctx, node), key: keyOf(ctx, node) };
  const statements: Stmt[] = [];
  const target = printCode(node.left, ctx, statements);
  const kind = node.operatorToken.kind;
  const [construct, test] =
    kind === ts.SyntaxKind.AmpersandAmpersandEqualsToken
      ? ["and_assign", target]
      : kind === ts.SyntaxKind.BarBarEqualsToken
        ? ["or_assign", `!${target}`]
        : ["nullish_assign", `${target} === null || ${target} === undefined`];
  let body: Stmt[];
  if (ts.isIdentifier(skipTypeWrappers(node.left)) || thisMember(skipTypeWrappers(node.left)) !== null) {
    body = assignInto(target, node.right, ctx);
  } else {
    const value = expressionValue(node.right, ctx);
    body = [...value.prelude, { kind: "code", loc: loc(ctx, node), key: at.key, code: `${target} = ${value.code}` }];
  }
  statements.push({
    kind: "if",
    ...at,
    construct,
    branches: [{ test: { prelude: [], code: test }, body, loc: at.loc }],
  });
  return { statements, target };
}

/** A variable, `this.x`, or members of one with literal or variable keys: reading it twice has no effect. */
function isPlainTarget(node: TS.Expression): boolean {
  const ts = typescript();
  const inner = skipTypeWrappers(node);
  if (ts.isIdentifier(inner) || thisMember(inner) !== null) return true;
  if (ts.isPropertyAccessExpression(inner)) return !inner.questionDotToken && isPlainTarget(inner.expression);
  if (ts.isElementAccessExpression(inner)) {
    const key = skipTypeWrappers(inner.argumentExpression);
    const plainKey =
      ts.isStringLiteral(key) ||
      ts.isNumericLiteral(key) ||
      ts.isNoSubstitutionTemplateLiteral(key) ||
      isPlainTarget(key);
    return !inner.questionDotToken && plainKey && isPlainTarget(inner.expression);
  }
  return false;
}

/** `c ? call() : other` as an if whose branches compute the value into a temporary. */
function guardConditional(node: TS.ConditionalExpression, ctx: FunctionContext, prelude: Stmt[]): string {
  const at = { loc: loc(ctx, node), key: keyOf(ctx, node) };
  const test = printCode(node.condition, ctx, prelude);
  const temp = tempName(ctx, at.key);
  prelude.push({ kind: "code", ...at, code: `let ${temp} = null` });
  prelude.push({
    kind: "if",
    ...at,
    construct: "ternary",
    branches: [
      { test: { prelude: [], code: test }, body: assignInto(temp, node.whenTrue, ctx), loc: loc(ctx, node.whenTrue) },
      { test: null, body: assignInto(temp, node.whenFalse, ctx), loc: loc(ctx, node.whenFalse) },
    ],
  });
  return temp;
}

/** Statements that compute an expression (its agent calls first) into an existing variable. */
function assignInto(variable: string, node: TS.Expression, ctx: FunctionContext): Stmt[] {
  const analyzed = analyzeExpression(node, ctx);
  if (analyzed.call) {
    checkHasValue(analyzed.call, ctx, node);
    return [...analyzed.prelude, { ...analyzed.call, assign: variable }];
  }
  return [
    ...analyzed.prelude,
    { kind: "code", loc: loc(ctx, node), key: keyOf(ctx, node), code: `${variable} = ${analyzed.code}` },
  ];
}

function isTryTool(node: TS.CallExpression, ctx: FunctionContext): boolean {
  const ts = typescript();
  const callee = skipTypeWrappers(node.expression);
  if (!ts.isIdentifier(callee)) return false;
  const tool = ctx.agent.tools.get(callee.text);
  return tool?.module === RUNTIME_MODULE && tool.export === "tryTool";
}

/** `undefined`, `void 0`, or a `typeof x` (compared with "undefined"). */
function isUndefined(node: TS.Expression): boolean {
  const ts = typescript();
  const inner = skipTypeWrappers(node);
  if (ts.isIdentifier(inner)) return inner.text === "undefined";
  if (ts.isVoidExpression(inner)) return true;
  return (
    ts.isStringLiteral(inner) &&
    inner.text === "undefined" &&
    ts.isBinaryExpression(node.parent) &&
    [node.parent.left, node.parent.right].some((side) => ts.isTypeOfExpression(skipTypeWrappers(side)))
  );
}

/** An identifier read as a value (not a property name, a declaration's name or a label). */
function isValueReference(node: TS.Identifier): boolean {
  const ts = typescript();
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false;
  if (ts.isPropertyAssignment(parent) && parent.name === node) return false;
  return true;
}
