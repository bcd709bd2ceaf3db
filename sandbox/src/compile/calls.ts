import { GLOBAL_FUNCTIONS, NAMESPACES } from "../builtins/globals.js";
import { MUTATING_METHODS, methodsOf } from "../builtins/methods.js";
import type { Builtin } from "../builtins/registry.js";
import { typeError } from "../errors.js";
import type * as ast from "../syntax/ast.js";
import { notDefined, type Context } from "../values/context.js";
import { toKey } from "../values/convert.js";
import { getMember, shown } from "../values/properties.js";
import { Closure, type ArrowCode, type Frame, type Value } from "../values/types.js";
import type { Compiler, Thunk } from "./context.js";
import { compileElements } from "./expressions.js";
import { compileKey, compileLink, SHORT } from "./members.js";
import { FunctionScope } from "./scope.js";
import { NORMAL } from "./statements.js";

type Arguments = (ctx: Context, frame: Frame | null) => Value[];

export function Call(c: Compiler, node: ast.Call): Thunk {
  return compileCall(c, node, false);
}

/**
 * Calls reach three kinds of function only: the host's tools (by name), the sandbox's global
 * functions and namespaces (`String(x)`, `Math.max(...)`, fixed when compiling), and methods of
 * the receiver's type (`xs.map(...)`), looked up in the sandbox's own tables.
 */
export function compileCall(c: Compiler, node: ast.Call, inChain: boolean): Thunk {
  const callee = node.callee;
  if (callee.kind === "Identifier") return namedCall(c, node, callee);
  if (callee.kind === "Member") {
    const object = callee.object;
    if (object.kind === "Identifier" && NAMESPACES.has(object.name) && c.resolve(object.name) === null) {
      return namespaceCall(c, node, object.name, callee);
    }
    return methodCall(c, node, callee, inChain);
  }
  throw c.error(
    "unsupported",
    "only tools, built-in functions and methods can be called, as in name(...) or xs.map(...)",
    callee,
  );
}

function namedCall(c: Compiler, node: ast.Call, callee: ast.Identifier): Thunk {
  const name = callee.name;
  if (c.resolve(name) !== null) throw c.error("type", `${name} is not a function`, callee);
  const args = compileArguments(c, node.arguments);
  const start = node.start;
  const builtin = GLOBAL_FUNCTIONS.get(name);
  if (builtin !== undefined) return builtinCall(builtin, args, start);
  c.hostNames.add(name);
  const optional = node.optional;
  return (ctx, frame) => {
    if (!ctx.isHostFunction(name)) {
      ctx.pos = start;
      if (!ctx.has(name)) throw notDefined(name);
      const value = ctx.read(name, start);
      if (optional && (value === null || value === undefined)) return SHORT;
      throw typeError(`${name} is not a function`);
    }
    const values = args(ctx, frame);
    ctx.pos = start;
    return ctx.callHost(name, values);
  };
}

function namespaceCall(c: Compiler, node: ast.Call, name: string, callee: ast.Member): Thunk {
  const namespace = NAMESPACES.get(name)!;
  if (callee.key.kind !== "Static")
    throw c.error("unsupported", `${name} can only be used with a fixed member name`, callee);
  const builtin = namespace.functions.get(callee.key.name);
  if (builtin === undefined) {
    throw c.error(
      namespace.constants.has(callee.key.name) ? "type" : "unsupported",
      namespace.constants.has(callee.key.name)
        ? `${name}.${callee.key.name} is not a function`
        : `${name}.${callee.key.name} is not available in the sandbox`,
      callee,
    );
  }
  return builtinCall(builtin, compileArguments(c, node.arguments), node.start);
}

function builtinCall(builtin: Builtin, args: Arguments, start: number): Thunk {
  return (ctx, frame) => {
    const values = args(ctx, frame);
    ctx.pos = start;
    checkCallbacks(builtin, values);
    return builtin.call(ctx, undefined, values);
  };
}

function methodCall(c: Compiler, node: ast.Call, callee: ast.Member, inChain: boolean): Thunk {
  const object = compileLink(c, callee.object, inChain);
  const key = compileKey(c, callee.key, callee);
  // Which methods run is known only at run time for a computed name: assume it may write.
  if (typeof key !== "string" || MUTATING_METHODS.has(key)) c.mutates = true;
  const args = compileArguments(c, node.arguments);
  const start = node.start;
  const memberOptional = callee.optional;
  const callOptional = node.optional;
  const text = c.text(callee);
  return (ctx, frame) => {
    const receiver = object(ctx, frame);
    if (receiver === SHORT) return SHORT;
    const k = typeof key === "string" ? key : toKey(ctx, key(ctx, frame));
    ctx.pos = start;
    if (receiver === null || receiver === undefined) {
      if (memberOptional) return SHORT;
      throw typeError(`cannot read properties of ${receiver} (reading '${shown(k)}')`);
    }
    const method = typeof k === "string" ? methodsOf(receiver)?.get(k) : undefined;
    if (method === undefined) {
      if (callOptional) {
        const value = getMember(ctx, receiver, k);
        if (value === null || value === undefined) return SHORT;
      }
      throw typeError(`${text()} is not a function`);
    }
    const values = args(ctx, frame);
    ctx.pos = start;
    checkCallbacks(method, values);
    return method.call(ctx, receiver, values);
  };
}

/** A closure may only go where the built-in expects a function, so none is ever stored. */
function checkCallbacks(builtin: Builtin, values: Value[]): void {
  for (let i = 0; i < values.length; i++) {
    if (values[i] instanceof Closure && !builtin.callbacks?.includes(i)) {
      throw typeError(`${builtin.name} does not take a function as argument ${i + 1}`);
    }
  }
}

function compileArguments(c: Compiler, nodes: (ast.Expression | ast.Spread)[]): Arguments {
  return compileElements(c, nodes, (node) => (node.kind === "Arrow" ? compileArrow(c, node) : c.expression(node)));
}

/** Outside a call's arguments an arrow function would be a value that could be stored: refused. */
export function Arrow(c: Compiler, node: ast.Arrow): Thunk {
  throw c.error(
    "unsupported",
    "an arrow function can only be passed directly to a method that takes one, as in xs.map(x => x * 2)",
    node,
  );
}

function compileArrow(c: Compiler, node: ast.Arrow): Thunk {
  c.enter(node.start);
  const outerCost = c.cost;
  const outer = c.fn;
  c.cost = 0;
  const fn = new FunctionScope(outer);
  c.fn = fn;
  const params = node.params.map((param) => c.pattern(param, "let"));
  const rest = node.rest === null ? null : c.pattern(node.rest, "let");
  let body: (ctx: Context, frame: Frame) => Value;
  if (node.body.kind === "Block") {
    const block = c.statement(node.body, false);
    body = (ctx, frame) => {
      const result = block(ctx, frame);
      return result === NORMAL ? undefined : result;
    };
  } else body = c.expression(node.body);
  const count = params.length;
  const simple = rest === null && node.params.every((param) => param.kind === "Identifier");
  const code: ArrowCode<Context> = {
    slots: fn.slots,
    cost: c.cost,
    body,
    bind: simple
      ? (_ctx, frame, args) => {
          const slots = frame.slots;
          for (let i = 0; i < count; i++) slots[i] = args[i];
        }
      : (ctx, frame, args) => {
          for (let i = 0; i < count; i++) params[i]!(ctx, frame, args[i]);
          if (rest !== null) {
            ctx.checkArrayLength(Math.max(0, args.length - count));
            rest(ctx, frame, args.slice(count));
          }
        },
  };
  c.fn = outer;
  c.cost = outerCost;
  c.leave();
  return (_ctx, frame) => new Closure(code, frame);
}
