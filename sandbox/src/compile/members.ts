import { NAMESPACES } from "../builtins/globals.js";
import { methodsOf } from "../builtins/methods.js";
import { typeError } from "../errors.js";
import type * as ast from "../syntax/ast.js";
import { toKey } from "../values/convert.js";
import { getMember } from "../values/properties.js";
import type { Value } from "../values/types.js";
import type { Compiler, Thunk } from "./context.js";
import { guardName } from "./expressions.js";

/** Ends an optional chain: a link whose object is nullish returns it, and the chain yields undefined. */
export const SHORT = Symbol("short-circuit") as unknown as Value;

/** The object of a link: links of the same chain pass a short circuit on. */
export function compileLink(c: Compiler, node: ast.Expression, inChain: boolean): Thunk {
  if (inChain && node.kind === "Member") {
    c.enter(node.start);
    const thunk = compileMember(c, node, true);
    c.leave();
    return thunk;
  }
  if (inChain && node.kind === "Call") {
    c.enter(node.start);
    const thunk = c.call(node, true);
    c.leave();
    return thunk;
  }
  return c.expression(node);
}

export function Member(c: Compiler, node: ast.Member): Thunk {
  return compileMember(c, node, false);
}

export function Chain(c: Compiler, node: ast.Chain): Thunk {
  const inner =
    node.expression.kind === "Member" ? compileMember(c, node.expression, true) : c.call(node.expression, true);
  return (ctx, frame) => {
    const value = inner(ctx, frame);
    return value === SHORT ? undefined : value;
  };
}

/** A key fixed in the text is checked once, here; a computed one each time it is computed. */
export function compileKey(c: Compiler, key: ast.PropertyKey, node: { start: number }): string | Thunk {
  if (key.kind === "Static") {
    guardName(c, key.name, node);
    return key.name;
  }
  return c.expression(key.expression);
}

function compileMember(c: Compiler, node: ast.Member, inChain: boolean): Thunk {
  if (node.object.kind === "Identifier" && NAMESPACES.has(node.object.name) && c.resolve(node.object.name) === null) {
    return namespaceConstant(c, node);
  }
  const object = compileLink(c, node.object, inChain);
  const key = compileKey(c, node.key, node);
  const start = node.start;
  const optional = node.optional;
  const text = c.text(node);
  if (typeof key === "string") {
    return (ctx, frame) => {
      const o = object(ctx, frame);
      if (o === SHORT || (optional && (o === null || o === undefined))) return SHORT;
      ctx.pos = start;
      const value = getMember(ctx, o, key);
      if (value === undefined) checkNotMethod(o, key, text);
      return value;
    };
  }
  return (ctx, frame) => {
    const o = object(ctx, frame);
    if (o === SHORT || (optional && (o === null || o === undefined))) return SHORT;
    const k = key(ctx, frame);
    ctx.pos = start;
    const name = toKey(ctx, k);
    const value = getMember(ctx, o, name);
    if (value === undefined) checkNotMethod(o, name, text);
    return value;
  };
}

/** `xs.map` without a call would be a host function escaping as a value: refused. */
function checkNotMethod(object: Value, key: string | number, text: () => string): void {
  if (typeof key !== "string" || object === null || object === undefined) return;
  if (methodsOf(object)?.has(key))
    throw typeError(`${text()} is a method: it can only be called, as in ${text()}(...)`);
}

function namespaceConstant(c: Compiler, node: ast.Member): Thunk {
  const name = (node.object as ast.Identifier).name;
  const namespace = NAMESPACES.get(name)!;
  if (node.key.kind !== "Static")
    throw c.error(
      "unsupported",
      `${name} can only be used with a fixed member name, as in ${name}.${[...namespace.functions.keys()][0]}`,
      node,
    );
  const member = node.key.name;
  if (namespace.constants.has(member)) {
    const value = namespace.constants.get(member);
    return () => value;
  }
  if (namespace.functions.has(member))
    throw c.error("type", `${name}.${member} is a function: it can only be called, as in ${name}.${member}(...)`, node);
  throw c.error("unsupported", `${name}.${member} is not available in the sandbox`, node);
}
