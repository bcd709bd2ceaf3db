import type TS from "typescript";
import type { JsonValue } from "@autograms/graph";
import { typescript } from "../1-parse/typescript.js";

/** Why an expression is not a compile-time literal: the offending sub-expression. */
export interface NotLiteral {
  notLiteral: TS.Node;
  /** The part is a `__proto__` key, which JavaScript reads as the object's prototype. */
  unsafeKey?: true;
}

/**
 * The JSON value of an expression made only of literals (strings, numbers, booleans, null,
 * arrays, objects, `as const`, string `+`), or the first part that is not one.
 */
export function literalValue(node: TS.Expression): JsonValue | NotLiteral {
  const ts = typescript();
  const inner = skipTypeWrappers(node);
  if (ts.isStringLiteral(inner) || ts.isNoSubstitutionTemplateLiteral(inner)) return inner.text;
  if (ts.isNumericLiteral(inner)) return Number(inner.text);
  if (inner.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (inner.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (inner.kind === ts.SyntaxKind.NullKeyword) return null;
  if (ts.isPrefixUnaryExpression(inner) && ts.isNumericLiteral(skipTypeWrappers(inner.operand))) {
    const n = Number((skipTypeWrappers(inner.operand) as TS.NumericLiteral).text);
    if (inner.operator === ts.SyntaxKind.MinusToken) return -n;
    if (inner.operator === ts.SyntaxKind.PlusToken) return n;
  }
  if (ts.isBinaryExpression(inner) && inner.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = literalValue(inner.left);
    const right = literalValue(inner.right);
    if (isNotLiteral(left)) return left;
    if (isNotLiteral(right)) return right;
    if (typeof left === "string" && typeof right === "string") return left + right;
    return { notLiteral: inner };
  }
  if (ts.isArrayLiteralExpression(inner)) {
    const items: JsonValue[] = [];
    for (const element of inner.elements) {
      if (ts.isSpreadElement(element) || ts.isOmittedExpression(element)) return { notLiteral: element };
      const value = literalValue(element);
      if (isNotLiteral(value)) return value;
      items.push(value);
    }
    return items;
  }
  if (ts.isObjectLiteralExpression(inner)) {
    const object: Record<string, JsonValue> = {};
    for (const property of inner.properties) {
      if (!ts.isPropertyAssignment(property)) return { notLiteral: property };
      const key = propertyKey(property.name);
      if (key === null) return { notLiteral: property.name };
      if (key === "__proto__") return { notLiteral: property.name, unsafeKey: true };
      const value = literalValue(property.initializer);
      if (isNotLiteral(value)) return value;
      object[key] = value;
    }
    return object;
  }
  return { notLiteral: inner };
}

export function isNotLiteral(value: JsonValue | NotLiteral): value is NotLiteral {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    "notLiteral" in value &&
    isNode(value.notLiteral)
  );
}

function isNode(value: unknown): value is TS.Node {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as TS.Node).kind === "number" &&
    typeof (value as TS.Node).pos === "number"
  );
}

/** The key of an object-literal property written as a name, a string or a number. */
export function propertyKey(name: TS.PropertyName): string | null {
  const ts = typescript();
  if (
    ts.isIdentifier(name) ||
    ts.isStringLiteral(name) ||
    ts.isNumericLiteral(name) ||
    ts.isNoSubstitutionTemplateLiteral(name)
  )
    return name.text;
  return null;
}

/** The field or method name of `this.name` (also `(this as any).name`), else null. */
export function thisMember(node: TS.Node): string | null {
  const ts = typescript();
  if (!ts.isPropertyAccessExpression(node) || !ts.isIdentifier(node.name)) return null;
  return skipTypeWrappers(node.expression).kind === ts.SyntaxKind.ThisKeyword ? node.name.text : null;
}

/** Strips what only the type checker sees: parentheses, `as`, `satisfies`, `!`, `<T>x`. */
export function skipTypeWrappers(node: TS.Expression): TS.Expression {
  const ts = typescript();
  let current = node;
  for (;;) {
    if (
      ts.isParenthesizedExpression(current) ||
      ts.isAsExpression(current) ||
      ts.isSatisfiesExpression(current) ||
      ts.isNonNullExpression(current) ||
      ts.isTypeAssertionExpression(current)
    ) {
      current = current.expression;
    } else {
      return current;
    }
  }
}
