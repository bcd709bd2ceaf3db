import { GLOBAL_FUNCTIONS, NAMESPACES } from "../builtins/globals.js";
import { methodsOf } from "../builtins/methods.js";
import type * as ast from "../syntax/ast.js";
import type { Context } from "../values/context.js";
import { toKey, toNumeric, typeOf } from "../values/convert.js";
import { BINARY, bitNot, chargeEquality, negate, plus, type BinaryFunction } from "../values/operators.js";
import { deleteMember, getMember, setMember } from "../values/properties.js";
import type { Frame, Value } from "../values/types.js";
import type { Compiler, Thunk } from "./context.js";
import { isBuiltinName, slotReader, slotWriter } from "./expressions.js";
import { compileKey } from "./members.js";

export function Unary(c: Compiler, node: ast.Unary): Thunk {
  const start = node.start;
  if (node.operator === "typeof" && node.argument.kind === "Identifier") return typeofName(c, node.argument);
  if (node.operator === "typeof" && node.argument.kind === "Member") return typeofMember(c, node.argument);
  if (node.operator === "delete") {
    const member = node.argument as ast.Member;
    c.mutates = true;
    const object = c.expression(member.object);
    const key = compileKey(c, member.key, member);
    return (ctx, frame) => {
      const o = object(ctx, frame);
      const k = typeof key === "string" ? key : toKey(ctx, key(ctx, frame));
      ctx.pos = start;
      return deleteMember(ctx, o, k);
    };
  }
  const argument = c.expression(node.argument);
  switch (node.operator) {
    case "!":
      return (ctx, frame) => !argument(ctx, frame);
    case "void":
      return (ctx, frame) => void argument(ctx, frame);
    case "typeof":
      return (ctx, frame) => typeOf(argument(ctx, frame));
    default: {
      const operation = node.operator === "-" ? negate : node.operator === "+" ? plus : bitNot;
      return (ctx, frame) => {
        const value = argument(ctx, frame);
        ctx.pos = start;
        return operation(ctx, value);
      };
    }
  }
}

/** `typeof name` never fails on an undefined name, as in JavaScript. */
function typeofName(c: Compiler, node: ast.Identifier): Thunk {
  const name = node.name;
  if (GLOBAL_FUNCTIONS.has(name)) return () => "function";
  if (NAMESPACES.has(name)) return () => "object";
  if (isBuiltinName(name) || c.resolve(name) !== null) {
    const value = c.expression(node);
    return (ctx, frame) => typeOf(value(ctx, frame));
  }
  c.hostNames.add(name);
  const start = node.start;
  return (ctx) => {
    if (ctx.has(name) || (name.length > 1 && name.startsWith("$") && ctx.has(name.slice(1))))
      return typeOf(ctx.read(name, start));
    return ctx.isHostFunction(name) ? "function" : "undefined";
  };
}

/** `typeof xs.map` and `typeof Math.max` are "function", though neither can be read as a value. */
function typeofMember(c: Compiler, node: ast.Member): Thunk {
  const base = node.object;
  if (
    base.kind === "Identifier" &&
    NAMESPACES.has(base.name) &&
    c.resolve(base.name) === null &&
    node.key.kind === "Static"
  ) {
    const namespace = NAMESPACES.get(base.name)!;
    const type = namespace.functions.has(node.key.name) ? "function" : typeof namespace.constants.get(node.key.name);
    return () => type;
  }
  const object = c.expression(base);
  const key = compileKey(c, node.key, node);
  const start = node.start;
  return (ctx, frame) => {
    const o = object(ctx, frame);
    const k = typeof key === "string" ? key : toKey(ctx, key(ctx, frame));
    ctx.pos = start;
    const value = getMember(ctx, o, k);
    if (value === undefined && typeof k === "string" && methodsOf(o)?.has(k)) return "function";
    return typeOf(value);
  };
}

export function Binary(c: Compiler, node: ast.Binary): Thunk {
  const left = c.expression(node.left);
  const right = c.expression(node.right);
  const start = node.start;
  const operation: BinaryFunction = BINARY[node.operator];
  // The common cases on numbers skip the general path (and the bookkeeping of positions).
  switch (node.operator) {
    case "+":
      return (ctx, frame) => {
        const a = left(ctx, frame),
          b = right(ctx, frame);
        if (typeof a === "number" && typeof b === "number") return a + b;
        ctx.pos = start;
        return operation(ctx, a, b);
      };
    case "-":
      return (ctx, frame) => {
        const a = left(ctx, frame),
          b = right(ctx, frame);
        if (typeof a === "number" && typeof b === "number") return a - b;
        ctx.pos = start;
        return operation(ctx, a, b);
      };
    case "*":
      return (ctx, frame) => {
        const a = left(ctx, frame),
          b = right(ctx, frame);
        if (typeof a === "number" && typeof b === "number") return a * b;
        ctx.pos = start;
        return operation(ctx, a, b);
      };
    case "<":
      return (ctx, frame) => {
        const a = left(ctx, frame),
          b = right(ctx, frame);
        if (typeof a === "number" && typeof b === "number") return a < b;
        ctx.pos = start;
        return operation(ctx, a, b);
      };
    case ">":
      return (ctx, frame) => {
        const a = left(ctx, frame),
          b = right(ctx, frame);
        if (typeof a === "number" && typeof b === "number") return a > b;
        ctx.pos = start;
        return operation(ctx, a, b);
      };
    case "<=":
      return (ctx, frame) => {
        const a = left(ctx, frame),
          b = right(ctx, frame);
        if (typeof a === "number" && typeof b === "number") return a <= b;
        ctx.pos = start;
        return operation(ctx, a, b);
      };
    case ">=":
      return (ctx, frame) => {
        const a = left(ctx, frame),
          b = right(ctx, frame);
        if (typeof a === "number" && typeof b === "number") return a >= b;
        ctx.pos = start;
        return operation(ctx, a, b);
      };
    case "===":
      return (ctx, frame) => {
        const a = left(ctx, frame),
          b = right(ctx, frame);
        if (typeof a === "string" && typeof b === "string") chargeEquality(ctx, a, b);
        return a === b;
      };
    case "!==":
      return (ctx, frame) => {
        const a = left(ctx, frame),
          b = right(ctx, frame);
        if (typeof a === "string" && typeof b === "string") chargeEquality(ctx, a, b);
        return a !== b;
      };
    default:
      return (ctx, frame) => {
        const a = left(ctx, frame),
          b = right(ctx, frame);
        ctx.pos = start;
        return operation(ctx, a, b);
      };
  }
}

/** Reads and writes one assignment target, evaluating its object and key once. */
interface TargetAccess {
  /** Evaluates the object and key (members) and returns the current value. */
  read(ctx: Context, frame: Frame | null, slot: { object: Value; key: string | number }): Value;
  write(ctx: Context, frame: Frame | null, slot: { object: Value; key: string | number }, value: Value): void;
}

export function checkAssignable(c: Compiler, node: ast.Identifier): void {
  if (isBuiltinName(node.name)) throw c.error("syntax", `cannot assign to the built-in '${node.name}'`, node);
  if (node.name === "__proto__") throw c.error("unsupported", "the name '__proto__' is not allowed", node);
  const local = c.resolve(node.name);
  if (local?.constant || (local === null && c.constants?.has(node.name))) {
    throw c.error("type", `assignment to constant variable '${node.name}'`, node);
  }
}

function compileTarget(c: Compiler, target: ast.Identifier | ast.Member): TargetAccess {
  if (target.kind === "Identifier") {
    checkAssignable(c, target);
    const local = c.resolve(target.name);
    const start = target.start;
    if (local !== null) {
      const read = slotReader(local);
      const write = slotWriter(local);
      return { read: (ctx, frame) => read(ctx, frame), write: (_ctx, frame, _slot, value) => write(frame, value) };
    }
    const name = target.name;
    return {
      read: (ctx) => ctx.read(name, start),
      write: (ctx, _frame, _slot, value) => {
        ctx.pos = start;
        ctx.assign(name, value);
      },
    };
  }
  c.mutates = true;
  const object = c.expression(target.object);
  const key = compileKey(c, target.key, target);
  const start = target.start;
  return {
    read(ctx, frame, slot) {
      slot.object = object(ctx, frame);
      slot.key = typeof key === "string" ? key : toKey(ctx, key(ctx, frame));
      ctx.pos = start;
      return getMember(ctx, slot.object, slot.key);
    },
    write(ctx, _frame, slot, value) {
      ctx.pos = start;
      setMember(ctx, slot.object, slot.key, value);
    },
  };
}

export function Update(c: Compiler, node: ast.Update): Thunk {
  const target = compileTarget(c, node.target);
  const delta = node.operator === "++" ? 1 : -1;
  const prefix = node.prefix;
  const start = node.start;
  return (ctx, frame) => {
    const slot = { object: undefined as Value, key: "" as string | number };
    const old = target.read(ctx, frame, slot);
    ctx.pos = start;
    const number = typeof old === "number" ? old : toNumeric(ctx, old);
    const updated = typeof number === "bigint" ? number + BigInt(delta) : number + delta;
    target.write(ctx, frame, slot, updated);
    return prefix ? updated : number;
  };
}

export function Assign(c: Compiler, node: ast.Assign): Thunk {
  if (node.operator === "=") {
    const value = c.expression(node.value);
    const bind = c.pattern(node.target, "assign");
    return (ctx, frame) => {
      const v = value(ctx, frame);
      bind(ctx, frame, v);
      return v;
    };
  }
  const targetNode = node.target as ast.Identifier | ast.Member;
  const target = compileTarget(c, targetNode);
  const value = c.expression(node.value);
  const start = node.start;
  const operator = node.operator.slice(0, -1);
  if (operator === "&&" || operator === "||" || operator === "??") {
    return (ctx, frame) => {
      const slot = { object: undefined as Value, key: "" as string | number };
      const old = target.read(ctx, frame, slot);
      const keep = operator === "&&" ? !old : operator === "||" ? !!old : old !== null && old !== undefined;
      if (keep) return old;
      const v = value(ctx, frame);
      target.write(ctx, frame, slot, v);
      return v;
    };
  }
  const operation = BINARY[operator as ast.BinaryOperator];
  return (ctx, frame) => {
    const slot = { object: undefined as Value, key: "" as string | number };
    const old = target.read(ctx, frame, slot);
    const v = value(ctx, frame);
    ctx.pos = start;
    const result = operation(ctx, old, v);
    target.write(ctx, frame, slot, result);
    return result;
  };
}
