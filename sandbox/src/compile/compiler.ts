import { SandboxError } from "../errors.js";
import type { Expression, Pattern, Program, Statement } from "../syntax/ast.js";
import type { Context } from "../values/context.js";
import type { Value } from "../values/types.js";
import { Arrow, Call, compileCall } from "./calls.js";
import {
  ArrayLiteral,
  Conditional,
  Identifier,
  Literal,
  Logical,
  ObjectLiteral,
  Sequence,
  Template,
} from "./expressions.js";
import { Chain, Member } from "./members.js";
import { Assign, Binary, Unary, Update } from "./operators.js";
import type { Binder, BindMode, Compiler, StatementThunk, Thunk } from "./context.js";
import { compilePattern } from "./patterns.js";
import type { FunctionScope, Resolved } from "./scope.js";
import { compileStatement } from "./statements.js";

export interface CompiledProgram {
  run(ctx: Context): Value;
  /** Whether the code can modify data (then variables read are copied first). */
  readonly mutates: boolean;
  /** Deepest nesting met, checked against the caller's maxDepth when the program is reused. */
  readonly depth: number;
  /** Free names the code looks up among the host's functions: those it calls, and those it asks `typeof` of. */
  readonly hostNames: ReadonlySet<string>;
}

type Visitor = (c: Compiler, node: never) => Thunk;

const EXPRESSIONS: Record<Expression["kind"], Visitor> = {
  Literal,
  Template,
  Identifier,
  ArrayLiteral,
  ObjectLiteral,
  Sequence,
  Conditional,
  Logical,
  Unary,
  Binary,
  Update,
  Assign,
  Member,
  Chain,
  Call,
  Arrow,
};

/** The one implementation of `Compiler`: it dispatches each syntax kind to its visitor. */
class ClosureCompiler implements Compiler {
  fn: FunctionScope | null = null;
  /** Syntax nodes of the body being compiled (the program, or the innermost arrow function). */
  cost = 0;
  mutates = false;
  /** See `CompiledProgram.hostNames`. */
  readonly hostNames = new Set<string>();
  /** Names the program declares `const` at its top level, so that writing them is refused before running. */
  constants: Set<string> | null = null;
  private depth = 0;
  deepest = 0;

  constructor(
    readonly source: string,
    private readonly maxDepth: number,
  ) {}

  enter(offset: number): void {
    if (++this.depth > this.maxDepth) {
      throw new SandboxError("limit", `code nested deeper than ${this.maxDepth} levels (maxDepth)`, {
        limit: "maxDepth",
        offset,
      });
    }
    if (this.depth > this.deepest) this.deepest = this.depth;
    this.cost++;
  }

  leave(): void {
    this.depth--;
  }

  expression(node: Expression): Thunk {
    this.enter(node.start);
    const thunk = (EXPRESSIONS[node.kind] as (c: Compiler, node: Expression) => Thunk)(this, node);
    this.leave();
    return thunk;
  }

  statement(node: Statement, topLevel: boolean): StatementThunk {
    this.enter(node.start);
    const thunk = compileStatement(this, node, topLevel);
    this.leave();
    return thunk;
  }

  /** A call inside an optional chain (`a?.b()`), where a nullish link ends the chain. */
  call(node: Extract<Expression, { kind: "Call" }>, inChain: boolean): Thunk {
    return compileCall(this, node, inChain);
  }

  pattern(node: Pattern, mode: BindMode): Binder {
    this.enter(node.start);
    const binder = compilePattern(this, node, mode);
    this.leave();
    return binder;
  }

  /** The text of a node, for messages: computed only when a message needs it. */
  text(node: { start: number; end: number }): () => string {
    const { source } = this;
    const { start, end } = node;
    return () => {
      const text = source.slice(start, end);
      return text.length > 60 ? `${text.slice(0, 57)}...` : text;
    };
  }

  error(kind: "syntax" | "unsupported" | "type" | "reference", message: string, node: { start: number }): SandboxError {
    return new SandboxError(kind, message, { offset: node.start });
  }

  // Lexical scopes of arrow functions; names outside any arrow function are the agent's variables.

  resolve(name: string): Resolved | null {
    let hops = 0;
    for (let fn = this.fn; fn !== null; fn = fn.parent, hops++) {
      for (let i = fn.blocks.length - 1; i >= 0; i--) {
        const binding = fn.blocks[i]!.get(name);
        if (binding !== undefined) return { hops, slot: binding.slot, constant: binding.constant };
      }
    }
    return null;
  }

  declareLocal(name: string, constant: boolean, node: { start: number }): number {
    const fn = this.fn!;
    const block = fn.blocks[fn.blocks.length - 1]!;
    if (block.has(name)) throw this.error("syntax", `'${name}' has already been declared`, node);
    const slot = fn.slots++;
    block.set(name, { slot, constant });
    return slot;
  }
}

export function compileProgram(program: Program, source: string, maxDepth: number): CompiledProgram {
  const c = new ClosureCompiler(source, maxDepth);
  const statements = program.body.map((statement) => c.statement(statement, true));
  const cost = c.cost;
  const run =
    statements.length === 1
      ? (() => {
          const only = statements[0]!;
          return (ctx: Context): Value => {
            ctx.charge(cost);
            return only(ctx, null) as Value;
          };
        })()
      : (ctx: Context): Value => {
          ctx.charge(cost);
          let value: Value;
          for (const statement of statements) value = statement(ctx, null) as Value;
          return value;
        };
  return { run, mutates: c.mutates, depth: c.deepest, hostNames: c.hostNames };
}
