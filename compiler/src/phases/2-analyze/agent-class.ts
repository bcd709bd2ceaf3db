import type TS from "typescript";
import { DECORATOR_KINDS, isSpecialTarget, type JsonValue } from "@autograms/graph";
import type { Diagnostics } from "../../diagnostics/diagnostic.js";
import { locOf, locOfRange } from "../1-parse/loc.js";
import { typescript } from "../1-parse/typescript.js";
import {
  AUTOMATIC_VARIABLE_NAMES,
  RUNTIME_MODULE,
  UNSAFE_NAME,
  isRuntimeTool,
  report,
  type AgentContext,
  type MethodInfo,
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
export function analyzeAgentClass(
  file: TS.SourceFile,
  diagnostics: Diagnostics,
  readFile: ReadFile,
): AgentClass | null {
  const ts = typescript();
  const context: AgentContext = {
    file,
    diagnostics,
    fields: new Map(),
    methods: new Map(),
    refusedMethods: new Set(),
    api: new Map(),
    tools: new Map(),
    usedTools: new Set(),
    readFile,
    actions: new Map(),
    usedActions: new Map(),
  };
  const classes: TS.ClassDeclaration[] = [];
  const localClasses = new Map<string, TS.ClassDeclaration>();
  const defaultExports: TS.Identifier[] = [];

  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement)) readImport(statement, context);
    else if (ts.isClassDeclaration(statement)) {
      if (isExported(statement)) classes.push(statement);
      else if (statement.name) localClasses.set(statement.name.text, statement);
      else report(context, "unsupported_syntax", "unnamed_class", statement);
    } else if (ts.isExportAssignment(statement) && ts.isIdentifier(statement.expression)) {
      defaultExports.push(statement.expression);
    } else if (isTypeOnly(statement)) {
    } else {
      report(context, "unsupported_syntax", "module_level", statement, { topLevel: describeTopLevel(statement) });
    }
  }
  for (const name of defaultExports) {
    const declared = localClasses.get(name.text);
    if (declared) {
      classes.push(declared);
      localClasses.delete(name.text);
    } else {
      report(context, "unsupported_syntax", "export_default", name, { name: name.text });
    }
  }
  for (const other of localClasses.values()) {
    report(context, "unsupported_syntax", "class_besides", other.name ?? other, { other: other.name?.text });
  }
  if (classes.length === 0) {
    diagnostics.report("no_agent_class", "no_export", locOfRange(file, 0, 0));
    return null;
  }
  for (const extra of classes.slice(1)) {
    report(context, "multiple_agent_classes", "second_exported", extra.name ?? extra, {
      detail: extra.name?.text ?? "default",
    });
  }
  const agentClass = classes[0]!;
  const globals = readMembers(agentClass, context);
  // An `async main()` and the like are reported as what they are, not as a missing main.
  if (!context.methods.has("main") && !context.refusedMethods.has("main")) {
    report(context, "missing_main", "no_main", agentClass.name ?? agentClass);
  }
  return { context, className: agentClass.name?.text ?? "Agent", globals };
}

function isExported(node: TS.ClassDeclaration): boolean {
  const ts = typescript();
  return ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;
}

function isTypeOnly(statement: TS.Statement): boolean {
  const ts = typescript();
  if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || ts.isEmptyStatement(statement))
    return true;
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
    report(context, "unsupported_syntax", "import_side", statement, { module });
    return;
  }
  if (clause.isTypeOnly) return;
  const fromRuntime = module === RUNTIME_MODULE;
  if (clause.name) {
    if (fromRuntime)
      report(context, "unsupported_syntax", "default_import", clause.name, { runtimeModule: RUNTIME_MODULE });
    else context.tools.set(clause.name.text, { module, export: "default" });
  }
  const bindings = clause.namedBindings;
  if (!bindings) return;
  if (ts.isNamespaceImport(bindings)) {
    report(context, "unsupported_syntax", "namespace_import", bindings, { bindings: bindings.name.text });
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
    const modifiers = ts.canHaveModifiers(member) ? (ts.getModifiers(member) ?? []) : [];
    if (modifiers.some((m) => m.kind === ts.SyntaxKind.StaticKeyword)) {
      report(context, "unsupported_syntax", "static_member", member);
      continue;
    }
    if (ts.isConstructorDeclaration(member)) {
      report(context, "unsupported_syntax", "constructor", member);
      continue;
    }
    if (ts.isGetAccessor(member) || ts.isSetAccessor(member) || ts.isClassStaticBlockDeclaration(member)) {
      report(context, "unsupported_syntax", "accessor", member, {
        detail: ts.isClassStaticBlockDeclaration(member) ? "a static block" : "a getter or setter",
      });
      continue;
    }
    const name = member.name;
    if (!name || !ts.isIdentifier(name)) {
      report(context, "unsupported_syntax", "member_name", name ?? member);
      continue;
    }
    if (name.text === UNSAFE_NAME) {
      report(context, "unsafe_name", "member_cannot", name, { unsafeName: UNSAFE_NAME });
      continue;
    }
    if (seen.has(name.text)) {
      report(context, "duplicate_name", "declared_twice", name, { name: name.text });
      continue;
    }
    seen.add(name.text);
    if (AUTOMATIC_VARIABLE_NAMES.has(name.text)) {
      report(context, "reserved_name", "automatic_variable", name, { name: name.text });
      continue;
    }
    if (ts.isPropertyDeclaration(member)) {
      const value = member.initializer ? literalValue(member.initializer) : null;
      if (isNotLiteral(value) && value.unsafeKey) {
        report(context, "unsafe_name", "key_initial", value.notLiteral, { unsafeName: UNSAFE_NAME, name: name.text });
      } else if (isNotLiteral(value)) {
        report(context, "non_literal_global", "initial_value", value.notLiteral, { name: name.text });
      } else {
        globals[name.text] = value;
      }
      context.fields.set(name.text, locOf(name, context.file));
    } else if (ts.isMethodDeclaration(member)) {
      if (isSpecialTarget(name.text)) {
        report(context, "reserved_name", "method_cannot", name, { name: name.text });
        continue;
      }
      const method = readMethod(member, name.text, context);
      if (method) context.methods.set(name.text, method);
      else context.refusedMethods.add(name.text);
    } else {
      report(context, "unsupported_syntax", "class_member", member);
    }
  }
  return globals;
}

function readMethod(member: TS.MethodDeclaration, name: string, context: AgentContext): MethodInfo | null {
  const ts = typescript();
  const modifiers = ts.getModifiers(member) ?? [];
  if (
    member.asteriskToken ||
    modifiers.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword || m.kind === ts.SyntaxKind.AbstractKeyword)
  ) {
    report(context, "unsupported_syntax", "method_kind", member.name, {
      detail: member.asteriskToken
        ? "a generator"
        : modifiers.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword)
          ? "an async"
          : "an abstract",
    });
    return null;
  }
  if (!member.body) {
    report(context, "unsupported_syntax", "method_without", member);
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
      report(context, "unsupported_syntax", "destructured_parameter", param.name);
      continue;
    }
    if (param.dotDotDotToken) report(context, "unsupported_syntax", "rest_parameter", param);
    if (param.initializer) {
      const value = literalValue(param.initializer);
      if (isNotLiteral(value)) {
        report(context, "unsupported_syntax", "parameter_default", value.notLiteral);
      } else {
        defaults[params.length] = JSON.stringify(value);
      }
    }
    if (param.name.text === UNSAFE_NAME) {
      report(context, "unsafe_name", "parameter_cannot", param.name, { unsafeName: UNSAFE_NAME });
    }
    if (AUTOMATIC_VARIABLE_NAMES.has(param.name.text)) {
      report(context, "reserved_name", "automatic_variable_runtime", param.name, { param: param.name.text });
    }
    params.push(param.name.text);
    if (param.questionToken || param.initializer || param.dotDotDotToken) optionalSeen = true;
    if (!optionalSeen) minArgs++;
  }
  if (kind === "main" && params.length > 0) {
    report(context, "unsupported_syntax", "parameters_main", member.parameters[0]!);
  }
  const info: MethodInfo = {
    name,
    kind: kind ?? "local_function",
    params,
    defaults,
    minArgs,
    decl: member,
    loc: locOf(member.name, context.file),
  };
  if (kind === null) info.kindUnknown = true;
  return info;
}

function methodKind(member: TS.MethodDeclaration, name: string, context: AgentContext): MethodInfo["kind"] | null {
  const ts = typescript();
  const decorators = ts.getDecorators(member) ?? [];
  if (name === "main") {
    if (decorators.length) report(context, "unknown_decorator", "main_takes", decorators[0]!);
    return "main";
  }
  if (decorators.length === 0) return "local_function";
  if (decorators.length > 1) report(context, "unknown_decorator", "method_takes", decorators[1]!);
  const expression = decorators[0]!.expression;
  const exported = ts.isIdentifier(expression) ? context.api.get(expression.text) : undefined;
  const kind = exported === undefined ? undefined : DECORATOR_KINDS[exported];
  if (!kind) {
    const hint = ts.isCallExpression(expression)
      ? " (write it without parentheses)"
      : ` imported from '${RUNTIME_MODULE}'`;
    report(context, "unknown_decorator", "func_localfunction", decorators[0]!, {
      expressionText: expression.getText(context.file),
      hint,
    });
    return null;
  }
  return kind;
}
