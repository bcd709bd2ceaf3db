import type TS from "typescript";
import {
  instructionKind,
  isBuiltinAction,
  nodeFieldFindings,
  SHORTHAND_ACTIONS,
  type JsonValue,
  type NodeFieldFinding,
} from "@autograms/graph";
import { didYouMean } from "../../../diagnostics/suggest.js";
import { typescript } from "../../1-parse/typescript.js";
import { keyOf, loc, report, type FunctionContext } from "../context.js";
import type { CodeAt, NodeFieldsIR, NodeParts, NodeStmt, Stmt } from "../ir.js";
import { skipTypeWrappers, thisMember } from "../literal.js";
import { readFields, type ReadFields } from "./ObjectLiteralExpression.js";
import { textOf } from "./TemplateExpression.js";

export type AgentCallKind = "exec_node" | "shorthand" | "method";

/** Whether a call makes a graph node: exec_node, a shorthand, or this.f(...). */
export function agentCallOf(node: TS.CallExpression, ctx: FunctionContext): AgentCallKind | null {
  const ts = typescript();
  const callee = skipTypeWrappers(node.expression);
  if (thisMember(callee) !== null) return "method";
  if (!ts.isIdentifier(callee)) return null;
  const exported = ctx.agent.api.get(callee.text);
  if (exported === "exec_node") return "exec_node";
  if (exported !== undefined && Object.hasOwn(SHORTHAND_ACTIONS, exported)) return "shorthand";
  return null;
}

/** The node an agent call makes, with what its arguments need computed first. */
export function visitAgentCall(node: TS.CallExpression, ctx: FunctionContext): { prelude: Stmt[]; node: NodeStmt } {
  const parts: NodeParts = { prelude: [], setup: [], callPlaceholders: [] };
  const kind = agentCallOf(node, ctx);
  const made =
    kind === "method"
      ? methodCall(node, ctx, parts.prelude)
      : kind === "exec_node"
        ? execNode(node, ctx, parts)
        : shorthand(node, ctx, parts);
  const { fields, construct, name, explicitTransitions, defType, fieldLocs } = made;
  const stmt: NodeStmt = {
    kind: "node",
    loc: loc(ctx, node),
    construct,
    key: keyOf(ctx, node),
    fields,
    explicitTransitions,
    defType,
  };
  if (name !== undefined) stmt.name = name;
  if (fieldLocs !== undefined) stmt.fieldLocs = fieldLocs;
  if (parts.setup.length) stmt.setup = parts.setup;
  if (parts.callPlaceholders.length) stmt.callPlaceholders = parts.callPlaceholders;
  return { prelude: parts.prelude, node: stmt };
}

interface Made {
  fields: NodeFieldsIR;
  construct: string;
  name?: string;
  explicitTransitions: boolean;
  defType: string;
  fieldLocs?: NodeStmt["fieldLocs"];
}

function methodCall(node: TS.CallExpression, ctx: FunctionContext, prelude: Stmt[]): Made {
  const ts = typescript();
  const callee = skipTypeWrappers(node.expression) as TS.PropertyAccessExpression;
  const name = thisMember(callee)!;
  const method = ctx.agent.methods.get(name);
  const args: string[] = [];
  for (const arg of node.arguments) {
    if (ts.isSpreadElement(arg)) {
      report(ctx, "unsupported_syntax", "spread_argument", arg);
      continue;
    }
    const value = ctx.visit.expressionValue(arg, ctx);
    prelude.push(...value.prelude);
    args.push(value.code);
  }
  if (!method) {
    if (ctx.agent.refusedMethods.has(name)) {
      // Reported where it is declared.
    } else if (ctx.agent.fields.has(name)) report(ctx, "not_a_method", "field", callee, { name });
    else {
      // main() cannot be called, so it is never the method meant.
      const callable = [...ctx.agent.methods.keys()].filter((m) => m !== "main");
      report(ctx, "unknown_method", "no_method", callee.name, { name, hint: didYouMean(name, callable) });
    }
  } else if (method.kind === "main") {
    report(ctx, "not_a_method", "main_top", callee);
  } else if (node.arguments.length < method.minArgs || node.arguments.length > method.params.length) {
    const expected =
      method.minArgs === method.params.length
        ? `${method.params.length}`
        : `${method.minArgs} to ${method.params.length}`;
    report(ctx, "argument_count", "takes_but", node, {
      name,
      expected,
      detail: expected === "1" ? "" : "s",
      argumentsCount: node.arguments.length,
    });
  }
  if (method) fillDefaults(args, node.arguments, method.defaults);
  const action = method && method.kind !== "main" ? method.kind : "local_function";
  return {
    fields: { action, instruction: `${name}(${args.join(", ")})` },
    construct: `call_${name}`,
    explicitTransitions: false,
    defType: "call",
  };
}

/**
 * Parameter defaults apply, as in JavaScript, where the call leaves the argument out or passes
 * `undefined`: the call itself passes the default then. (In the callee a missing argument and a
 * null one look alike, so the default could not be applied there without also replacing null.)
 */
function fillDefaults(args: string[], written: TS.NodeArray<TS.Expression>, defaults: (string | undefined)[]): void {
  const ts = typescript();
  written.forEach((arg, i) => {
    const inner = skipTypeWrappers(arg);
    const undefinedValue =
      (ts.isIdentifier(inner) && inner.text === "undefined") ||
      (ts.isVoidExpression(inner) && ts.isNumericLiteral(inner.expression));
    if (undefinedValue && defaults[i] !== undefined && i < args.length) args[i] = defaults[i]!;
  });
  const last = defaults.length - 1;
  for (let i = args.length; i <= last; i++) args.push(defaults[i] ?? "null");
}

function execNode(node: TS.CallExpression, ctx: FunctionContext, parts: NodeParts): Made {
  const ts = typescript();
  const [first, ...rest] = node.arguments;
  const object = first && skipTypeWrappers(first);
  if (rest.length) report(ctx, "unsupported_syntax", "exec_node", rest[0]!);
  if (!object || !ts.isObjectLiteralExpression(object)) {
    report(ctx, "non_literal_field", "exec_node", first ?? node);
    return {
      fields: { action: "transition" },
      construct: "exec_node",
      explicitTransitions: false,
      defType: "exec_node",
    };
  }
  const read = readFields(object, ctx, parts, []);
  const action = typeof read.fields.action === "string" ? read.fields.action : undefined;
  if (!read.written.has("action")) report(ctx, "missing_field", "exec_node", node.expression);
  return finish(
    { action: action ?? "transition", ...read.fields },
    read,
    action ?? "exec_node",
    "exec_node",
    node,
    ctx,
  );
}

function shorthand(node: TS.CallExpression, ctx: FunctionContext, parts: NodeParts): Made {
  const ts = typescript();
  const callee = skipTypeWrappers(node.expression) as TS.Identifier;
  const exported = ctx.agent.api.get(callee.text)!;
  const action = SHORTHAND_ACTIONS[exported]!;
  const [instructionArg, options, ...rest] = node.arguments;
  if (rest.length) report(ctx, "unsupported_syntax", "takes_instruction", rest[0]!, { exported });
  let instruction: string | null = null;
  if (!instructionArg) report(ctx, "missing_field", "needs_instruction", node, { exported });
  else {
    instruction = textOf(instructionArg, ctx, parts);
    if (instruction === null) {
      report(ctx, "non_literal_field", "instruction_must", instructionArg);
    }
  }
  let read: ReadFields = { fields: {}, written: new Set(), at: {}, meant: new Set() };
  if (options) {
    const object = skipTypeWrappers(options);
    if (ts.isObjectLiteralExpression(object)) read = readFields(object, ctx, parts, ["action", "instruction"]);
    else report(ctx, "non_literal_field", "options_must", options, { exported });
  }
  return finish({ action, instruction: instruction ?? "", ...read.fields }, read, action, exported, node, ctx);
}

/** Checks that concern several fields at once, and takes out the name. */
function finish(
  all: Record<string, JsonValue>,
  { at, written, targetsAt, meant }: ReadFields,
  construct: string,
  defType: string,
  node: TS.CallExpression,
  ctx: FunctionContext,
): Made {
  const { name, ...rest } = all;
  const fields = rest as NodeFieldsIR;
  // A misspelt field is reported once, as unknown: that the node then lacks it is no second mistake.
  const misspelt = (...names: string[]) => names.some((f) => meant.has(f));
  // A custom action's node needs an instruction only if its action says so (in its required fields).
  const custom = ctx.agent.usedActions.has(fields.action);
  const instructed = !custom && (!isBuiltinAction(fields.action) || instructionKind(fields.action) !== "none");
  if (instructed && fields.instruction === undefined && !written.has("instruction") && !misspelt("instruction")) {
    report(ctx, "missing_field", "node_needs", at.action ?? node, { action: fields.action });
  }
  if (fields.transitions?.length === 0) report(ctx, "invalid_field_value", "transitions_needs", at.transitions!);
  const transitions = fields.transitions ?? ["next"];
  const choices = fields.transition_choices as string[] | undefined;
  const decides = custom && ctx.agent.usedActions.get(fields.action)!.decides === true;
  // The graph's own rules, reported where the fields were written, in the words of the catalogue.
  const findings = nodeFieldFindings(
    {
      action: fields.action,
      transitions,
      transition_question: fields.transition_question as string | undefined,
      transition_choices: choices,
      user_instruction_transitions: fields.user_instruction_transitions as string[] | undefined,
      schema: fields.schema,
      tools: fields.tools as string[] | undefined,
    },
    decides,
  );
  const found = <R extends NodeFieldFinding["rule"]>(rule: R) =>
    findings.find((f): f is Extract<NodeFieldFinding, { rule: R }> => f.rule === rule);
  const plural = transitions.length === 1 ? "" : "s";
  const question = found("no_transition_question");
  if (question && !misspelt("transitions", "transition_question")) {
    report(ctx, "transition_choices_mismatch", "transitions_need", at.transitions ?? node, {
      transitionsCount: question.transitions,
    });
  }
  // Stricter than the graph, which ignores the answers of a node with one transition: written in
  // the source, they are still a mistake.
  const answers =
    found("transition_choices_count") ??
    (choices !== undefined && choices.length !== transitions.length
      ? { transitions: transitions.length, choices: choices.length }
      : undefined);
  if (answers && !misspelt("transitions", "transition_choices")) {
    report(ctx, "transition_choices_mismatch", "but_give", at.transition_choices ?? at.transitions ?? node, {
      transitionsCount: answers.transitions,
      plural,
      choicesCount: answers.choices,
    });
  }
  const simulated = found("user_instruction_transitions_count");
  if (simulated && !misspelt("transitions")) {
    report(ctx, "transition_choices_mismatch", "but_user", at.user_instruction_transitions!, {
      transitionsCount: simulated.transitions,
      plural,
      simulatedCount: simulated.simulated,
    });
  }
  const tools = found("tools_at_action");
  if (tools) report(ctx, "invalid_field_value", "tools_offered", at.tools!, { action: tools.action });
  // A schema at another node is one mistake: whether it would be a valid one is beside the point.
  const schemaAt = found("schema_at_action");
  const schemaInvalid = found("schema_invalid");
  if (schemaAt) report(ctx, "invalid_field_value", "schema_thought", at.schema!, { action: schemaAt.action });
  else if (schemaInvalid) report(ctx, "invalid_field_value", "schema_invalid", at.schema!, { why: schemaInvalid.why });
  const made: Made = { fields, construct, explicitTransitions: fields.transitions !== undefined, defType };
  if (typeof name === "string" && name !== "auto") made.name = name;
  const fieldLocs: NonNullable<Made["fieldLocs"]> = {};
  if (made.name !== undefined) fieldLocs.name = loc(ctx, at.name!);
  if (fields.transitions !== undefined && targetsAt?.length === fields.transitions.length)
    fieldLocs.transitions = targetsAt.map((t) => loc(ctx, t));
  if (typeof fields.boolean_condition === "string" && at.boolean_condition)
    fieldLocs.condition = codeAt(at.boolean_condition, ctx);
  if (fieldLocs.name || fieldLocs.transitions || fieldLocs.condition) made.fieldLocs = fieldLocs;
  return made;
}

/** Where a string of code was written, and the column its code starts at when that is exact. */
function codeAt(node: TS.Node, ctx: FunctionContext): CodeAt {
  const ts = typescript();
  const at: CodeAt = { loc: loc(ctx, node) };
  const literal = skipTypeWrappers(node as TS.Expression);
  if (!ts.isStringLiteral(literal) && !ts.isNoSubstitutionTemplateLiteral(literal)) return at;
  const raw = literal.getText(ctx.agent.file).slice(1, -1);
  if (raw === literal.text && at.loc.line === at.loc.endLine) at.exact = { column: at.loc.column + 1, code: raw };
  return at;
}
