import type TS from "typescript";
import { typescript } from "../../1-parse/typescript.js";
import { AUTOMATIC_VARIABLE_NAMES, keyOf, loc, type FunctionContext } from "../context.js";
import type { NodeParts } from "../ir.js";
import { skipTypeWrappers, thisMember } from "../literal.js";
import { checkHasValue } from "./has-value.js";
import { tempName } from "./temp.js";

/**
 * Text of a node field that takes `$variables` (an instruction, a transition question): string
 * and template literals and `+` of them. Each `${...}` placeholder becomes a `$name` reference;
 * a placeholder that is not a plain variable is computed into a temporary: by the node itself
 * when it is entered (`parts.setup`), so every way into the node computes it, or, when it needs
 * an agent call, by nodes before it (`parts.prelude`). Returns null when the value is not text
 * known at compile time.
 */
export function textOf(node: TS.Expression, ctx: FunctionContext, parts: NodeParts): string | null {
  const ts = typescript();
  const inner = skipTypeWrappers(node);
  if (ts.isStringLiteral(inner) || ts.isNoSubstitutionTemplateLiteral(inner)) return inner.text;
  if (ts.isTemplateExpression(inner)) {
    let text = inner.head.text;
    for (const span of inner.templateSpans) {
      const name = placeholderVariable(span.expression, ctx, parts);
      const following = span.literal.text;
      // `$name` runs to the end of the longest run of letters, digits and `_`.
      text += /^[A-Za-z0-9_]/.test(following) ? `\${${name}}` : `$${name}`;
      text += following;
    }
    return text;
  }
  if (ts.isBinaryExpression(inner) && inner.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = textOf(inner.left, ctx, parts);
    const right = left === null ? null : textOf(inner.right, ctx, parts);
    return left === null || right === null ? null : left + right;
  }
  return null;
}

function placeholderVariable(expression: TS.Expression, ctx: FunctionContext, parts: NodeParts): string {
  const ts = typescript();
  const inner = skipTypeWrappers(expression);
  if (ts.isIdentifier(inner) && ctx.locals.has(inner.text)) return inner.text;
  const member = thisMember(inner);
  if (member !== null && (ctx.agent.fields.has(member) || AUTOMATIC_VARIABLE_NAMES.has(member))) return member;
  const analyzed = ctx.visit.expression(expression, ctx);
  const temp = tempName(ctx, keyOf(ctx, expression));
  if (!analyzed.call && analyzed.prelude.length === 0) {
    parts.setup.push({ code: `let ${temp} = ${analyzed.code}`, loc: loc(ctx, expression) });
    return temp;
  }
  parts.callPlaceholders.push(loc(ctx, expression));
  parts.prelude.push(...analyzed.prelude);
  if (analyzed.call) {
    checkHasValue(analyzed.call, ctx, expression);
    parts.prelude.push({ ...analyzed.call, assign: temp });
  } else {
    parts.prelude.push({
      kind: "code",
      loc: loc(ctx, expression),
      key: keyOf(ctx, expression),
      code: `let ${temp} = ${analyzed.code}`,
    });
  }
  return temp;
}
