import type TS from "typescript";
import { DECORATOR_KINDS, isSpecialTarget, type JsonValue } from "@autograms/runtime";
import type { Diagnostics } from "../../diagnostics/diagnostic.js";
import { locOf, locOfRange } from "../1-parse/loc.js";
import { typescript } from "../1-parse/typescript.js";
import {
  AUTOMATIC_VARIABLES, RUNTIME_MODULE, UNSAFE_NAME, isRuntimeTool, report,
  type AgentContext, type MethodInfo,
} from "./context.js";
import { isNotLiteral, literalValue } from "./literal.js";
import type { ReadFile } from "./action-module.js";

export interface AgentClass {
  context: AgentContext;
  className: string;
  globals: Record<string, JsonValue>;
}

/**
 * Reads the module: its imports (the agent language and tools), the one exported class, the
 * class's fields (globals) and methods (functions). Bodies are analyzed later, per function.
 */
export function analyzeAgentClass(file: TS.SourceFile, diagnostics: Diagnostics, readFile: ReadFile): AgentClass | null {
  const ts = typescript();
  const context: AgentContext = {
    file, diagnostics, fields: new Map(), methods: new Map(), refusedMethods: new Set(), api: new Map(), tools: new Map(), usedTools: new Set(),
    readFile, actions: new Map(), usedActions: new Map(),
  };
  const classes: TS.ClassDeclaration[] = [];
  const localClasses = new Map<string, TS.ClassDeclaration>();
  const defaultExports: TS.Identifier[] = [];

  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement)) readImport(statement, context);
    else if (ts.isClassDeclaration(statement)) {
      if (isExported(statement)) classes.push(statement);
      else if (statement.name) localClasses.set(statement.name.text, statement);
      else report(context, "unsupported_syntax", "an unnamed class that is not exported", statement);
    } else if (ts.isExportAssignment(statement) && ts.isIdentifier(statement.expression)) {
      defaultExports.push(statement.expression);
    } else if (isTypeOnly(statement)) {
      continue;
    } else {
      report(context, "unsupported_syntax", `${describeTopLevel(statement)} at module level: an agent file holds its imports and one exported class (import helper functions from another module; they become tools)`, statement);
    }
  }
  for (const name of defaultExports) {
    const declared = localClasses.get(name.text);
    if (declared) {
      classes.push(declared);
      localClasses.delete(name.text);
    } else {
      report(context, "unsupported_syntax", `'export default ${name.text}' where ${name.text} is not a class of this file`, name);
    }
  }
  for (const other of localClasses.values()) {
    report(context, "unsupported_syntax", `class '${other.name?.text}' besides the agent class: an agent file exports exactly one class`, other.name ?? other);
  }
  if (classes.length === 0) {
    diagnostics.report("no_agent_class", "no exported agent class: write 'export default class MyAgent extends Autogram { main() { ... } }'", locOfRange(file, 0, 0));
    return null;
  }
  for (const extra of classes.slice(1)) {
    report(context, "multiple_agent_classes", `a second exported class '${extra.name?.text ?? "default"}': an agent file exports exactly one class`, extra.name ?? extra);
  }
  const agentClass = classes[0]!;
  const globals = readMembers(agentClass, context);
  // An `async main()` and the like are reported as what they are, not as a missing main.
  if (!context.methods.has("main") && !context.refusedMethods.has("main")) {
    report(context, "missing_main", "the agent class has no main() method: main() is where the conversation starts", agentClass.name ?? agentClass);
  }
  return { context, className: agentClass.name?.text ?? "Agent", globals };
}

function isExported(node: TS.ClassDeclaration): boolean {
  const ts = typescript();
  return ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;
}

function isTypeOnly(statement: TS.Statement): boolean {
  const ts = typescript();
  if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || ts.isEmptyStatement(statement)) return true;
  if (ts.isExportDeclaration(statement)) return statement.isTypeOnly;
  const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined;
  return modifiers?.some((m) => m.kind === ts.SyntaxKind.DeclareKeyword) ?? false;
}

function describeTopLevel(statement: TS.Statement): string {
  const ts = typescript();
  if (ts.isFunctionDeclaration(statement)) return `function '${statement.name?.text ?? ""}'`;
  if (ts.isVariableStatement(statement)) return "a variable declaration";
  if (ts.isEnumDeclaration(statement)) return "an enum";
  if (ts.isExportDeclaration(statement)) return "a re-export";
  if (ts.isModuleDeclaration(statement)) return "a namespace";
  return "a statement";
}

function readImport(statement: TS.ImportDeclaration, context: AgentContext): void {
  const ts = typescript();
  const clause = statement.importClause;
  if (!ts.isStringLiteral(statement.moduleSpecifier)) return;
  const module = statement.moduleSpecifier.text;
  if (!clause) {
    report(context, "unsupported_syntax", `import '${module}' for its side effects: an agent imports functions by name`, statement);
    return;
  }
  if (clause.isTypeOnly) return;
  const fromRuntime = module === RUNTIME_MODULE;
  if (clause.name) {
    if (fromRuntime) report(context, "unsupported_syntax", `a default import from '${RUNTIME_MODULE}': import the agent language by name`, clause.name);
    else context.tools.set(clause.name.text, { module, export: "default" });
  }
  const bindings = clause.namedBindings;
  if (!bindings) return;
  if (ts.isNamespaceImport(bindings)) {
    report(context, "unsupported_syntax", `a namespace import ('import * as ${bindings.name.text}'): import functions by name`, bindings);
    return;
  }
  for (const element of bindings.elements) {
    if (element.isTypeOnly) continue;
    const exported = (element.propertyName ?? element.name).text;
    // The runtime's own callable functions (tryTool, the ReAct helpers) are tools like any other.
    if (fromRuntime && !isRuntimeTool(exported)) context.api.set(element.name.text, exported);
    else context.tools.set(element.name.text, { module, export: exported });
  }
}

function readMembers(agentClass: TS.ClassDeclaration, context: AgentContext): Record<string, JsonValue> {
  const ts = typescript();
  const globals: Record<string, JsonValue> = {};
  const seen = new Set<string>();
  for (const member of agentClass.members) {
    if (ts.isSemicolonClassElement(member) || ts.isIndexSignatureDeclaration(member)) continue;
    const modifiers = ts.canHaveModifiers(member) ? ts.getModifiers(member) ?? [] : [];
    if (modifiers.some((m) => m.kind === ts.SyntaxKind.StaticKeyword)) {
      report(context, "unsupported_syntax", "a static member: agent state lives in instance fields", member);
      continue;
    }
    if (ts.isConstructorDeclaration(member)) {
      report(context, "unsupported_syntax", "a constructor: give each field its initial value where it is declared", member);
      continue;
    }
    if (ts.isGetAccessor(member) || ts.isSetAccessor(member) || ts.isClassStaticBlockDeclaration(member)) {
      report(context, "unsupported_syntax", `${ts.isClassStaticBlockDeclaration(member) ? "a static block" : "a getter or setter"} in an agent class`, member);
      continue;
    }
    const name = member.name;
    if (!name || !ts.isIdentifier(name)) {
      report(context, "unsupported_syntax", "a member whose name is not a plain identifier (private #names, computed names)", name ?? member);
      continue;
    }
    if (name.text === UNSAFE_NAME) {
      report(context, "unsafe_name", `a member cannot be named '${UNSAFE_NAME}': JavaScript reads it as an object's prototype, so the field would not be kept in memory; choose another name`, name);
      continue;
    }
    if (seen.has(name.text)) {
      report(context, "duplicate_name", `'${name.text}' is declared twice in the class`, name);
      continue;
    }
    seen.add(name.text);
    if (AUTOMATIC_VARIABLES.has(name.text)) {
      report(context, "reserved_name", `'${name.text}' is an automatic variable that the runtime sets; choose another name`, name);
      continue;
    }
    if (ts.isPropertyDeclaration(member)) {
      const value = member.initializer ? literalValue(member.initializer) : null;
      if (isNotLiteral(value) && value.unsafeKey) {
        report(context, "unsafe_name", `the key '${UNSAFE_NAME}' in the initial value of field '${name.text}': JavaScript reads it as the object's prototype, not as a key; choose another key`, value.notLiteral);
      } else if (isNotLiteral(value)) {
        report(context, "non_literal_global", `the initial value of field '${name.text}' must be a JSON literal (strings, numbers, booleans, null, arrays and objects of them)`, value.notLiteral);
      } else {
        globals[name.text] = value;
      }
      context.fields.set(name.text, locOf(name, context.file));
    } else if (ts.isMethodDeclaration(member)) {
      if (isSpecialTarget(name.text)) {
        report(context, "reserved_name", `a method cannot be named '${name.text}': its entry node would read as a special transition`, name);
        continue;
      }
      const method = readMethod(member, name.text, context);
      if (method) context.methods.set(name.text, method);
      else context.refusedMethods.add(name.text);
    } else {
      report(context, "unsupported_syntax", "this kind of class member", member);
    }
  }
  return globals;
}

function readMethod(member: TS.MethodDeclaration, name: string, context: AgentContext): MethodInfo | null {
  const ts = typescript();
  const modifiers = ts.getModifiers(member) ?? [];
  if (member.asteriskToken || modifiers.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword || m.kind === ts.SyntaxKind.AbstractKeyword)) {
    report(context, "unsupported_syntax", `${member.asteriskToken ? "a generator" : modifiers.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword) ? "an async" : "an abstract"} method: agent functions are plain methods`, member.name);
    return null;
  }
  if (!member.body) {
    report(context, "unsupported_syntax", "a method without a body (an overload signature)", member);
    return null;
  }
  const kind = methodKind(member, name, context);
  const params: string[] = [];
  const defaults: (string | undefined)[] = [];
  let minArgs = 0;
  let optionalSeen = false;
  for (const param of member.parameters) {
    if (ts.isIdentifier(param.name) && param.name.text === "this") continue;
    if (!ts.isIdentifier(param.name)) {
      report(context, "unsupported_syntax", "a destructured parameter: take the value and destructure it in the body", param.name);
      continue;
    }
    if (param.dotDotDotToken) report(context, "unsupported_syntax", "a rest parameter: pass an array", param);
    if (param.initializer) {
      const value = literalValue(param.initializer);
      if (isNotLiteral(value)) {
        report(context, "unsupported_syntax", "a parameter default that is not a JSON literal: calls fill a default in where they leave the argument out, so it cannot depend on other values; make the parameter optional ('x?: T') and compute the value in the body", value.notLiteral);
      } else {
        defaults[params.length] = JSON.stringify(value);
      }
    }
    if (param.name.text === UNSAFE_NAME) {
      report(context, "unsafe_name", `a parameter cannot be named '${UNSAFE_NAME}': JavaScript reads it as an object's prototype; choose another name`, param.name);
    }
    if (AUTOMATIC_VARIABLES.has(param.name.text)) {
      report(context, "reserved_name", `'${param.name.text}' is an automatic variable that the runtime sets; choose another name`, param.name);
    }
    params.push(param.name.text);
    if (param.questionToken || param.initializer || param.dotDotDotToken) optionalSeen = true;
    if (!optionalSeen) minArgs++;
  }
  if (kind === "main" && params.length > 0) {
    report(context, "unsupported_syntax", "parameters on main(): main is the top level and takes none", member.parameters[0]!);
  }
  const info: MethodInfo = { name, kind: kind ?? "local_function", params, defaults, minArgs, decl: member, loc: locOf(member.name, context.file) };
  if (kind === null) info.kindUnknown = true;
  return info;
}

function methodKind(member: TS.MethodDeclaration, name: string, context: AgentContext): MethodInfo["kind"] | null {
  const ts = typescript();
  const decorators = ts.getDecorators(member) ?? [];
  if (name === "main") {
    if (decorators.length) report(context, "unknown_decorator", "main() takes no decorator: it is the top level, not a function", decorators[0]!);
    return "main";
  }
  if (decorators.length === 0) return "local_function";
  if (decorators.length > 1) report(context, "unknown_decorator", "a method takes one decorator: @func, @localFunction or @globalFunction", decorators[1]!);
  const expression = decorators[0]!.expression;
  const exported = ts.isIdentifier(expression) ? context.api.get(expression.text) : undefined;
  const kind = exported === undefined ? undefined : DECORATOR_KINDS[exported];
  if (!kind) {
    const hint = ts.isCallExpression(expression) ? " (write it without parentheses)" : ` imported from '${RUNTIME_MODULE}'`;
    report(context, "unknown_decorator", `unknown decorator '@${expression.getText(context.file)}': use @func, @localFunction or @globalFunction${hint}`, decorators[0]!);
    return null;
  }
  return kind;
}
