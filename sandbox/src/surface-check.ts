import type * as ast from "./syntax/ast.js";
import { parse } from "./syntax/parser.js";
import { DEFAULT_LIMITS } from "./limits.js";
import { SANDBOX_SURFACE } from "./surface.js";
import { globalHint, methodHint, unknownFunctionHint } from "./surface-hints.js";

/** Something code uses that the evaluator does not offer; `start`/`end` are offsets in the code. */
export interface SurfaceProblem {
  message: string;
  start: number;
  end: number;
}

let ALL_METHODS: ReadonlySet<string> | undefined;

/** Every method some kind of value has: a call of any other can never run. */
export function allMethods(): ReadonlySet<string> {
  ALL_METHODS ??= new Set(Object.values(SANDBOX_SURFACE.methods).flatMap((methods) => [...methods]));
  return ALL_METHODS;
}

/**
 * What a code text uses that the evaluator's surface (SANDBOX_SURFACE) lacks: a method no value
 * has, a namespace's missing member, a global it leaves out, and, when `callable` (the tools
 * the code may call) is given, a call of a name that is neither a built-in function nor one of
 * them. Code the parser refuses has no problems here (`checkCode` reports it). Names the code
 * binds itself (declarations, callback parameters) are its own, whatever they are called.
 */
export function surfaceProblems(code: string, callable?: ReadonlySet<string>): SurfaceProblem[] {
  let program: ast.Program;
  try {
    program = parse(code, DEFAULT_LIMITS);
  } catch {
    return [];
  }
  const bound = new Set<string>();
  const problems: SurfaceProblem[] = [];
  const at = (node: { start: number; end: number }, message: string) =>
    problems.push({ message, start: node.start, end: node.end });
  walk(program, (node) => {
    if (node.kind === "Declaration") for (const d of node.declarators) bind(d.target, bound);
    if (node.kind === "Arrow") for (const p of [...node.params, ...(node.rest ? [node.rest] : [])]) bind(p, bound);
  });
  const free = (name: string) => !bound.has(name);
  walk(program, (node) => {
    if (node.kind === "Identifier" && free(node.name) && SANDBOX_SURFACE.unavailable.has(node.name)) {
      at(node, `'${node.name}' is not available in agent code: ${globalHint(node.name)}`);
      return;
    }
    if (node.kind !== "Call") return;
    const callee = node.callee;
    if (callee.kind === "Identifier") {
      const name = callee.name;
      if (
        !callable ||
        !free(name) ||
        SANDBOX_SURFACE.globals.has(name) ||
        callable.has(name) ||
        SANDBOX_SURFACE.unavailable.has(name)
      )
        return;
      at(callee, `'${name}()' is not a function agent code can call: ${unknownFunctionHint(SANDBOX_SURFACE.globals)}`);
      return;
    }
    if (callee.kind !== "Member" || callee.key.kind !== "Static") return;
    const member = callee.key.name;
    const object = callee.object;
    if (object.kind === "Identifier" && free(object.name)) {
      if (SANDBOX_SURFACE.unavailable.has(object.name)) return; // the global is reported
      const namespace = SANDBOX_SURFACE.namespaces.get(object.name);
      if (namespace) {
        if (!namespace.functions.has(member)) {
          at(
            callee,
            `'${object.name}.${member}()' is not available in agent code: ${object.name} offers ${[...namespace.functions].join(", ")}`,
          );
        }
        return;
      }
    }
    if (!allMethods().has(member)) at(callee, `'.${member}()' is not available in agent code: ${methodHint(member)}`);
  });
  return problems;
}

type Visit = (node: ast.Expression | ast.Statement | ast.Program | ast.Pattern) => void;

/** Every node of the tree (an object with a `kind` and a position), parents first. */
function walk(node: object, visit: Visit): void {
  const isNode =
    typeof (node as { kind?: unknown }).kind === "string" && typeof (node as { start?: unknown }).start === "number";
  if (isNode) visit(node as ast.Expression);
  for (const value of Object.values(node)) {
    for (const child of Array.isArray(value) ? value : [value]) {
      if (child && typeof child === "object") walk(child as object, visit);
    }
  }
}

function bind(pattern: ast.Pattern, names: Set<string>): void {
  switch (pattern.kind) {
    case "Identifier":
      names.add(pattern.name);
      break;
    case "ArrayPattern":
      for (const e of [...pattern.elements, pattern.rest]) if (e) bind(e, names);
      break;
    case "ObjectPattern":
      for (const p of pattern.properties) bind(p.value, names);
      if (pattern.rest) bind(pattern.rest, names);
      break;
    case "DefaultPattern":
      bind(pattern.target, names);
      break;
    case "Member":
      break;
  }
}
