import { typeError } from "../errors.js";
import type * as ast from "../syntax/ast.js";
import type { Context } from "../values/context.js";
import { toKey } from "../values/convert.js";
import { iterate } from "../values/iterate.js";
import { getMember, setMember } from "../values/properties.js";
import { copyValues, isArray, type GuestObject, type Value } from "../values/types.js";
import type { Binder, BindMode, Compiler } from "./context.js";
import { slotWriter } from "./expressions.js";
import { compileKey } from "./members.js";
import { checkAssignable } from "./operators.js";

/** Declarations bind new names; assignments write existing names or properties. */

const create = Object.create;
const keys = Object.keys;

export function compilePattern(c: Compiler, node: ast.Pattern, mode: BindMode): Binder {
  switch (node.kind) {
    case "Identifier":
      return identifier(c, node, mode);
    case "Member":
      return member(c, node, mode);
    case "DefaultPattern": {
      const fallback = c.expression(node.fallback);
      const target = c.pattern(node.target, mode);
      return (ctx, frame, value) => target(ctx, frame, value === undefined ? fallback(ctx, frame) : value);
    }
    case "ArrayPattern":
      return arrayPattern(c, node, mode);
    case "ObjectPattern":
      return objectPattern(c, node, mode);
  }
}

function identifier(c: Compiler, node: ast.Identifier, mode: BindMode): Binder {
  checkAssignable(c, node);
  const name = node.name;
  const start = node.start;
  if (mode === "assign") {
    const local = c.resolve(name);
    if (local !== null) {
      const write = slotWriter(local);
      return (_ctx, frame, value) => write(frame, value);
    }
    return (ctx, _frame, value) => {
      ctx.pos = start;
      ctx.assign(name, value);
    };
  }
  if (c.fn !== null) {
    const slot = c.declareLocal(name, mode === "const", node);
    return (_ctx, frame, value) => {
      frame!.slots[slot] = value;
    };
  }
  const constant = mode === "const";
  if (constant) (c.constants ??= new Set()).add(name);
  else c.constants?.delete(name);
  return (ctx, _frame, value) => ctx.declare(name, value, constant);
}

function member(c: Compiler, node: ast.Member, mode: BindMode): Binder {
  if (mode !== "assign") throw c.error("syntax", "a declaration binds names, not properties", node);
  c.mutates = true;
  const object = c.expression(node.object);
  const key = compileKey(c, node.key, node);
  const start = node.start;
  return (ctx, frame, value) => {
    const o = object(ctx, frame);
    const k = typeof key === "string" ? key : toKey(ctx, key(ctx, frame));
    ctx.pos = start;
    setMember(ctx, o, k, value);
  };
}

function arrayPattern(c: Compiler, node: ast.ArrayPattern, mode: BindMode): Binder {
  const elements = node.elements.map((element) => (element === null ? null : c.pattern(element, mode)));
  const rest = node.rest === null ? null : c.pattern(node.rest, mode);
  const start = node.start;
  return (ctx, frame, value) => {
    ctx.pos = start;
    const items = iterate(ctx, value);
    for (let i = 0; i < elements.length; i++) elements[i]?.(ctx, frame, items[i]);
    if (rest !== null) {
      const remaining = items.length > elements.length ? items.length - elements.length : 0;
      ctx.checkArrayLength(remaining);
      ctx.charge(remaining);
      rest(ctx, frame, copyValues(items, elements.length));
    }
  };
}

function objectPattern(c: Compiler, node: ast.ObjectPattern, mode: BindMode): Binder {
  const properties = node.properties.map((property) => ({
    key: compileKey(c, property.key, property),
    bind: c.pattern(property.value, mode),
  }));
  const rest = node.rest === null ? null : c.pattern(node.rest, mode);
  const start = node.start;
  return (ctx, frame, value) => {
    ctx.pos = start;
    if (value === null || value === undefined) throw typeError(`cannot destructure ${value}`);
    const used: (string | number)[] = [];
    for (const { key, bind } of properties) {
      const k = typeof key === "string" ? key : toKey(ctx, key(ctx, frame));
      used.push(typeof k === "number" ? String(k) : k);
      ctx.pos = start;
      bind(ctx, frame, getMember(ctx, value, k));
    }
    if (rest !== null) rest(ctx, frame, restOf(ctx, value, used));
  };
}

function restOf(ctx: Context, value: Value, used: (string | number)[]): GuestObject {
  const out: GuestObject = create(null);
  const names =
    typeof value === "string" || isArray(value)
      ? Array.from({ length: value.length }, (_, i) => String(i))
      : typeof value === "object" && value !== null
        ? keys(value)
        : [];
  ctx.charge(names.length);
  ctx.alloc(16 + 16 * names.length);
  for (const name of names) if (!used.includes(name)) out[name] = getMember(ctx, value, name);
  return out;
}
