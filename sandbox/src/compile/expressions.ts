import { GLOBAL_FUNCTIONS, NAMESPACES } from "../builtins/globals.js";
import type * as ast from "../syntax/ast.js";
import { checkKeyName, concat, toKey, toStr } from "../values/convert.js";
import { iterate } from "../values/iterate.js";
import type { Frame, GuestObject, Value } from "../values/types.js";
import { isArray } from "../values/types.js";
import type { Compiler, Thunk } from "./context.js";
import type { Resolved } from "./scope.js";

const create = Object.create;
const keys = Object.keys;

export function Literal(_c: Compiler, node: ast.Literal): Thunk {
  const value = node.value;
  return () => value;
}

export function Template(c: Compiler, node: ast.Template): Thunk {
  const quasis = node.quasis;
  const parts = node.expressions.map((expression) => c.expression(expression));
  const start = node.start;
  return (ctx, frame) => {
    let text = quasis[0]!;
    for (let i = 0; i < parts.length; i++) {
      const value = parts[i]!(ctx, frame);
      ctx.pos = start;
      text = concat(ctx, concat(ctx, text, toStr(ctx, value)), quasis[i + 1]!);
    }
    return text;
  };
}

/** Names the sandbox defines itself: they cannot be declared, assigned or shadowed. */
export function isBuiltinName(name: string): boolean {
  return (
    name === "undefined" || name === "NaN" || name === "Infinity" || NAMESPACES.has(name) || GLOBAL_FUNCTIONS.has(name)
  );
}

export function Identifier(c: Compiler, node: ast.Identifier): Thunk {
  const name = node.name;
  switch (name) {
    case "undefined":
      return () => undefined;
    case "NaN":
      return () => NaN;
    case "Infinity":
      return () => Infinity;
  }
  if (NAMESPACES.has(name)) {
    throw c.error(
      "type",
      `${name} can only be used through its members, as in ${name}.${[...NAMESPACES.get(name)!.functions.keys()][0]}(...)`,
      node,
    );
  }
  if (GLOBAL_FUNCTIONS.has(name))
    throw c.error("type", `${name} is a function: it can only be called, as in ${name}(...)`, node);
  const local = c.resolve(name);
  if (local !== null) return slotReader(local);
  const start = node.start;
  return (ctx) => ctx.read(name, start);
}

export function slotReader({ hops, slot }: Resolved): Thunk {
  switch (hops) {
    case 0:
      return (_ctx, frame) => frame!.slots[slot];
    case 1:
      return (_ctx, frame) => frame!.parent!.slots[slot];
    default:
      return (_ctx, frame) => {
        let f = frame!;
        for (let i = 0; i < hops; i++) f = f.parent!;
        return f.slots[slot];
      };
  }
}

export function slotWriter({ hops, slot }: Resolved): (frame: Frame | null, value: Value) => void {
  return (frame, value) => {
    let f = frame!;
    for (let i = 0; i < hops; i++) f = f.parent!;
    f.slots[slot] = value;
  };
}

/** Arguments and array elements, with spreads expanded. */
export function compileElements(
  c: Compiler,
  elements: (ast.Expression | ast.Spread)[],
  compileElement: (node: ast.Expression) => Thunk = (node) => c.expression(node),
): (ctx: Parameters<Thunk>[0], frame: Frame | null) => Value[] {
  const compiled = elements.map((element) =>
    element.kind === "Spread"
      ? { spread: true, start: element.start, thunk: c.expression(element.argument) }
      : { spread: false, start: element.start, thunk: compileElement(element) },
  );
  const count = compiled.length;
  if (compiled.every((element) => !element.spread)) {
    const thunks = compiled.map((element) => element.thunk);
    switch (count) {
      case 0:
        return () => [];
      case 1: {
        const only = thunks[0]!;
        return (ctx, frame) => [only(ctx, frame)];
      }
      default:
        return (ctx, frame) => {
          const values = new Array<Value>(count);
          for (let i = 0; i < count; i++) values[i] = thunks[i]!(ctx, frame);
          return values;
        };
    }
  }
  return (ctx, frame) => {
    const values: Value[] = [];
    for (const { spread, start, thunk } of compiled) {
      const value = thunk(ctx, frame);
      if (!spread) {
        values.push(value);
        continue;
      }
      ctx.pos = start;
      const items = iterate(ctx, value);
      ctx.growArray(values.length, items.length);
      ctx.charge(items.length);
      for (let j = 0; j < items.length; j++) values.push(items[j]);
    }
    return values;
  };
}

export function ArrayLiteral(c: Compiler, node: ast.ArrayLiteral): Thunk {
  const elements = compileElements(c, node.elements);
  return (ctx, frame) => {
    const values = elements(ctx, frame);
    ctx.checkArrayLength(values.length);
    return values;
  };
}

type PropertyWriter = (ctx: Parameters<Thunk>[0], frame: Frame | null, object: GuestObject) => void;

export function ObjectLiteral(c: Compiler, node: ast.ObjectLiteral): Thunk {
  const writers: PropertyWriter[] = node.properties.map((property): PropertyWriter => {
    const start = property.start;
    if (property.kind === "Spread") {
      const source = c.expression(property.argument);
      return (ctx, frame, object) => {
        const value = source(ctx, frame);
        ctx.pos = start;
        spreadInto(ctx, object, value);
      };
    }
    const value = c.expression(property.value);
    if (property.key.kind === "Static") {
      const name = property.key.name;
      guardName(c, name, property);
      return (ctx, frame, object) => {
        object[name] = value(ctx, frame);
      };
    }
    const key = c.expression(property.key.expression);
    return (ctx, frame, object) => {
      const k = key(ctx, frame);
      ctx.pos = start;
      const name = toKey(ctx, k);
      object[typeof name === "number" ? String(name) : name] = value(ctx, frame);
    };
  });
  const count = writers.length;
  return (ctx, frame) => {
    const object: GuestObject = create(null);
    for (let i = 0; i < count; i++) writers[i]!(ctx, frame, object);
    ctx.alloc(16 + 16 * count);
    return object;
  };
}

export function guardName(c: Compiler, name: string, node: { start: number }): void {
  try {
    checkKeyName(name);
  } catch (error) {
    throw c.error("unsupported", (error as Error).message, node);
  }
}

function spreadInto(ctx: Parameters<Thunk>[0], object: GuestObject, value: Value): void {
  if (value === null || value === undefined || (typeof value !== "object" && typeof value !== "string")) return;
  if (typeof value === "string" || isArray(value)) {
    ctx.charge(value.length);
    ctx.alloc(16 * value.length);
    for (let i = 0; i < value.length; i++) object[String(i)] = value[i];
    return;
  }
  const names = keys(value);
  ctx.charge(names.length);
  ctx.alloc(16 * names.length);
  for (const name of names) object[name] = (value as GuestObject)[name];
}

export function Sequence(c: Compiler, node: ast.Sequence): Thunk {
  const parts = node.expressions.map((expression) => c.expression(expression));
  return (ctx, frame) => {
    let value: Value;
    for (const part of parts) value = part(ctx, frame);
    return value;
  };
}

export function Conditional(c: Compiler, node: ast.Conditional): Thunk {
  const test = c.expression(node.test);
  const consequent = c.expression(node.consequent);
  const alternate = c.expression(node.alternate);
  return (ctx, frame) => (test(ctx, frame) ? consequent(ctx, frame) : alternate(ctx, frame));
}

export function Logical(c: Compiler, node: ast.Logical): Thunk {
  const left = c.expression(node.left);
  const right = c.expression(node.right);
  switch (node.operator) {
    case "&&":
      return (ctx, frame) => left(ctx, frame) && right(ctx, frame);
    case "||":
      return (ctx, frame) => left(ctx, frame) || right(ctx, frame);
    default:
      return (ctx, frame) => left(ctx, frame) ?? right(ctx, frame);
  }
}
