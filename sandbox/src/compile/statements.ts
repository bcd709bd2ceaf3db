import { SandboxError } from "../errors.js";
import type * as ast from "../syntax/ast.js";
import type { Context } from "../values/context.js";
import { toStr } from "../values/convert.js";
import { isPlainObject, type Value } from "../values/types.js";
import type { Compiler, StatementThunk, Thunk } from "./context.js";

export const NORMAL = Symbol("normal") as unknown as Value;

export function compileStatement(c: Compiler, node: ast.Statement, topLevel: boolean): StatementThunk {
  switch (node.kind) {
    case "ExpressionStatement": {
      const expression = c.expression(node.expression);
      if (topLevel) return expression;
      return (ctx, frame) => {
        expression(ctx, frame);
        return NORMAL;
      };
    }
    case "Declaration":
      return declaration(c, node, topLevel);
    case "If": {
      const test = c.expression(node.test);
      for (const branch of [node.consequent, node.alternate]) {
        if (branch?.kind === "Declaration")
          throw c.error("syntax", "a declaration needs braces around it here", branch);
      }
      const consequent = c.statement(node.consequent, false);
      const alternate = node.alternate === null ? null : c.statement(node.alternate, false);
      return (ctx, frame) =>
        test(ctx, frame) ? consequent(ctx, frame) : alternate === null ? NORMAL : alternate(ctx, frame);
    }
    case "Block": {
      c.fn!.blocks.push(new Map());
      const body = node.body.map((statement) => c.statement(statement, false));
      c.fn!.blocks.pop();
      return (ctx, frame) => {
        for (let i = 0; i < body.length; i++) {
          const result = body[i]!(ctx, frame);
          if (result !== NORMAL) return result;
        }
        return NORMAL;
      };
    }
    case "Return": {
      const argument = node.argument === null ? null : c.expression(node.argument);
      return argument === null ? () => undefined : argument;
    }
    case "Throw": {
      const argument = c.expression(node.argument);
      const start = node.start;
      return (ctx, frame) => {
        const value = argument(ctx, frame);
        ctx.pos = start;
        throw thrown(ctx, value);
      };
    }
    case "Empty":
      return topLevel ? () => undefined : () => NORMAL;
  }
}

function declaration(c: Compiler, node: ast.Declaration, topLevel: boolean): StatementThunk {
  const mode = node.declarationKind === "const" ? "const" : "let";
  const declarators = node.declarators.map((declarator) => {
    const init: Thunk | null = declarator.init === null ? null : c.expression(declarator.init);
    return { init, bind: c.pattern(declarator.target, mode) };
  });
  const done = topLevel ? undefined : NORMAL;
  if (declarators.length === 1) {
    const { init, bind } = declarators[0]!;
    return (ctx, frame) => {
      const value = init === null ? undefined : init(ctx, frame);
      bind(ctx, frame, value);
      return done ?? value;
    };
  }
  return (ctx, frame) => {
    let last: Value;
    for (const { init, bind } of declarators) {
      const value = init === null ? undefined : init(ctx, frame);
      if (init !== null) last = value;
      bind(ctx, frame, value);
    }
    return done ?? last;
  };
}

/** What guest code throws becomes a message only: no object crosses back. */
function thrown(ctx: Context, value: Value): SandboxError {
  let message: string;
  if (typeof value === "string") message = value;
  else if (isPlainObject(value) && typeof value["message"] === "string" && Object.hasOwn(value, "message"))
    message = value["message"];
  else message = toStr(ctx, value);
  if (message.length > 500) {
    ctx.flatten(message);
    message = `${message.slice(0, 500)}…`;
  }
  return new SandboxError("thrown", message);
}
