/**
 * A validated graph prepared for running: nodes by name with their identities, parsed text
 * templates and call instructions, and the lookups the step needs. Built once per Agent.
 */
import type { Action, ActionEffects, FunctionInfo, Graph, GraphNode, JsonValue } from "@autograms/graph";
import {
  candidates,
  familyOf,
  fieldsOfKind,
  instructionKind,
  isBuiltinAction,
  isFunctionKind,
  type SeriesKind,
} from "@autograms/graph";
import type { ValidateFunction } from "ajv";
import { ownFields } from "@autograms/graph";
import { validatorOf } from "@autograms/graph";
import { parseCallInstruction } from "@autograms/graph";
import type { ActionHook } from "./state.js";
import type { AgentConfig } from "./config.js";
import type { ToolDefinition } from "../model/types.js";
import { hostFunctionNames, SandboxError, type SandboxLimits } from "@autograms/sandbox";
import { AgentError } from "../errors.js";
import { canonicalJson, sha256 } from "../memory/hash.js";
import { nodeIdentity } from "../memory/node-identity.js";
import { parseTemplate, TemplateError, type Template } from "./template.js";

export interface CompiledNode {
  node: GraphNode;
  /** What the node does, as a hash (see memory/node-identity.ts). */
  id: string;
  /** The instruction of model, exact and prompt nodes, parsed. */
  text?: Template;
  question?: Template;
  call?: { name: string; info: FunctionInfo; args: string };
  /** The built-in action whose behaviour the node has: its own, or for a custom action its base (else `transition`). */
  as: Action;
  /** Its behaviour ends the turn with a reply (a chat action, or a custom action's chat base). */
  chat: boolean;
  /** The conversation may wait here for the user: a chat node, or a custom action's that may reply. */
  waits: boolean;
  /** A custom action's node: which hooks its action gives (the step asks the loop to run them). */
  custom?: CustomInfo;
  /**
   * A chat node whose next step is certainly `quit`: its only transition is `quit` and no
   * interjection could take the user's answer elsewhere. Its reply ends the conversation.
   */
  endsConversation: boolean;
  /** Tools the node offers the model natively: their definitions, and graph tool names by the names the model calls. */
  tools?: { definitions: ToolDefinition[]; byModelName: ReadonlyMap<string, string> };
  /** A thought's `schema`, compiled: its answer is data that must match. */
  answers?: ValidateFunction;
}

export interface CustomInfo {
  action: string;
  hooks: Readonly<Record<ActionHook, boolean>>;
  /** The action's fields of the node, each string parsed as a template. */
  fields: Record<string, FieldTemplate>;
  /** What its results may change besides the node's output, as the graph records it (the Agent checked the implementation declares the same). */
  effects: ActionEffects;
}

/** A field's value with each string parsed, so `$variables` fill in at run time. */
export type FieldTemplate =
  | { kind: "text"; template: Template }
  | { kind: "list"; items: FieldTemplate[] }
  | { kind: "object"; entries: [string, FieldTemplate][] }
  | { kind: "value"; value: JsonValue };

export interface Program {
  graph: Graph;
  file: string | undefined;
  /** Identity of the whole graph (content without locations or source hash). */
  hash: string;
  nodes: Map<string, CompiledNode>;
  start: string;
  /** Nodes with `condition_interjection`, in graph order. */
  interjections: CompiledNode[];
  config: AgentConfig;
  /** Sandbox limits; undefined for the sandbox's defaults. */
  limits: Partial<SandboxLimits> | undefined;
  maxSteps: number;
  /** Function calls allowed on the stack at once (a guard against runaway recursion). */
  maxCallDepth: number;
  /**
   * The nodes whose visits anything consults: members of `X.1`, `X.2`, … series and the states
   * named by state-history fields and `required_revisit`. Only these are counted.
   */
  tracked: ReadonlySet<string>;
  /** Does the sandbox look a tool up in this code (so it needs the asynchronous evaluation with tools bound)? */
  usesTool(code: string): boolean;
  /** Code runs in child processes (the agent's `isolation: "process"`): every evaluation is handed to the loop. */
  isolated: boolean;
  /** `X.a`, `X.b`, … that exist, in order. */
  lettered(base: string): string[];
  /** `X.1`, `X.2`, … that exist, in order. */
  numbered(base: string): string[];
}

/** The fields whose states the run counts visits of. */
const STATE_FIELDS = fieldsOfKind("nodes");

function withoutLoc<T extends { loc?: unknown }>(value: T): Omit<T, "loc"> {
  const { loc: _loc, ...rest } = value;
  return rest;
}

export function graphIdentity(graph: Graph): string {
  const functions = Object.fromEntries(Object.entries(graph.functions).map(([k, f]) => [k, withoutLoc(f)]));
  return sha256(
    canonicalJson({
      agent: graph.agent,
      globals: graph.globals,
      functions,
      tools: graph.tools ?? {},
      start: graph.start ?? null,
      nodes: graph.nodes.map(withoutLoc),
    }),
  ).slice(0, 32);
}

export interface ProgramOptions {
  config: AgentConfig;
  limits: Partial<SandboxLimits> | undefined;
  maxSteps: number;
  maxCallDepth: number;
  toolNames: string[];
  /** Descriptions of the tools that have one (made with `defineTool`), by graph name. */
  toolDefinitions: Readonly<Record<string, ToolDefinition>>;
  /** See `Program.isolated`. */
  isolated?: boolean;
  /** The hooks each custom action's implementation gives, by action name. */
  actionHooks: Readonly<Record<string, Readonly<Record<ActionHook, boolean>>>>;
}

/** Parses every string of a custom field's value as a template (`$variables` fill in at run time). */
function fieldTemplate(value: JsonValue, parse: (text: string) => Template | undefined): FieldTemplate {
  if (typeof value === "string") {
    const template = parse(value);
    return template ? { kind: "text", template } : { kind: "value", value };
  }
  if (Array.isArray(value)) return { kind: "list", items: value.map((v) => fieldTemplate(v, parse)) };
  if (value !== null && typeof value === "object")
    return { kind: "object", entries: Object.entries(value).map(([k, v]) => [k, fieldTemplate(v, parse)]) };
  return { kind: "value", value };
}

/** A node's native tools, each with a definition and a name of its own for the model. */
function offeredTools(
  names: string[],
  options: ProgramOptions,
  problem: (detail: string) => void,
): CompiledNode["tools"] {
  const definitions: ToolDefinition[] = [];
  const byModelName = new Map<string, string>();
  const known = options.toolDefinitions;
  for (const name of names) {
    const definition = Object.hasOwn(known, name) ? known[name]! : undefined;
    // A tool with no implementation at all is reported once, with the graph's other missing tools.
    if (!definition && !options.toolNames.includes(name)) continue;
    if (!definition) {
      problem(
        `offers tool '${name}' to the model, but its implementation has no description: make it with defineTool({ name, description, parameters, run })`,
      );
      continue;
    }
    const other = byModelName.get(definition.name);
    if (other !== undefined)
      problem(`offers tools '${other}' and '${name}', which the model would both call '${definition.name}'`);
    byModelName.set(definition.name, name);
    definitions.push(definition);
  }
  return { definitions, byModelName };
}

/**
 * Whether the sandbox would look any of the tools up in this code. Code it cannot even parse uses
 * none: it is evaluated in the step, which reports the error at its node.
 */
function callsAny(code: string, tools: ReadonlySet<string>, limits: Partial<SandboxLimits> | undefined): boolean {
  let names: ReadonlySet<string>;
  try {
    names = hostFunctionNames(code, limits);
  } catch (e) {
    if (e instanceof SandboxError) return false;
    throw e;
  }
  for (const name of names) if (tools.has(name)) return true;
  return false;
}

export function compileProgram(graph: Graph, options: ProgramOptions): Program {
  const file = graph.source?.file;
  const problems: AgentError[] = [];
  const nodes = new Map<string, CompiledNode>();
  const interjects = graph.nodes.some((n) => n.condition_interjection !== undefined);
  for (const node of graph.nodes) {
    const problem = (detail: string) =>
      problems.push(new AgentError("invalid_graph", detail, { node: node.name, loc: node.loc, file }));
    const parse = (text: string, field: string): Template | undefined => {
      try {
        return parseTemplate(text);
      } catch (e) {
        if (!(e instanceof TemplateError)) throw e;
        problem(`${field}: ${e.message} (at character ${e.offset + 1})`);
        return undefined;
      }
    };
    const builtin = isBuiltinAction(node.action);
    const as = (builtin ? node.action : (graph.actions?.[node.action]?.base ?? "transition")) as Action;
    const chat = familyOf(as) === "chat";
    const compiled: CompiledNode = { node, id: nodeIdentity(node), as, chat, waits: chat, endsConversation: false };
    if (!builtin) {
      const hooks = options.actionHooks[node.action] ?? { instruction: false, transition: false, output: false };
      const fields = Object.fromEntries(
        Object.entries(ownFields(node)).map(([k, v]) => [k, fieldTemplate(v as JsonValue, (t) => parse(t, k))]),
      );
      const effects = graph.actions?.[node.action]?.effects ?? {};
      compiled.custom = { action: node.action, hooks, fields, effects };
      compiled.waits = chat || hooks.instruction;
    }
    // Hooks run when the node is left wait for the user's answer, so such a node never ends it at once.
    const leavingHooks =
      compiled.custom !== undefined && (compiled.custom.hooks.output || compiled.custom.hooks.transition);
    compiled.endsConversation =
      compiled.waits && !leavingHooks && node.transitions.length === 1 && node.transitions[0] === "quit" && !interjects;
    if (instructionKind(as) === "text" || compiled.custom) compiled.text = parse(node.instruction ?? "", "instruction");
    if (node.transition_question !== undefined)
      compiled.question = parse(node.transition_question, "transition_question");
    if (isFunctionKind(node.action)) {
      const call = parseCallInstruction(node.instruction ?? "");
      const info = call ? graph.functions[call.name] : undefined;
      if (!call) problem(`instruction '${node.instruction}' is not a call 'name(arg, …)'`);
      else if (!info) problem(`calls '${call.name}', which is not in the graph's functions`);
      else if (info.kind !== node.action) problem(`calls '${call.name}' as ${node.action}, but it is a ${info.kind}`);
      else compiled.call = { name: call.name, info, args: call.args };
    }
    if ("tools" in node && node.tools) {
      compiled.tools = offeredTools(node.tools as string[], options, (detail) =>
        problems.push(new AgentError("missing_tool", detail, { node: node.name, loc: node.loc, file })),
      );
    }
    if (node.schema !== undefined) {
      const v = validatorOf(node.schema);
      if (typeof v === "string") problem(`schema is not a JSON Schema: ${v}`);
      else compiled.answers = v;
    }
    nodes.set(node.name, compiled);
  }
  for (const name of Object.keys(graph.tools ?? {})) {
    if (!options.toolNames.includes(name)) {
      const t = graph.tools![name]!;
      problems.push(
        new AgentError(
          "missing_tool",
          `the graph uses tool '${name}' (export '${t.export}' of '${t.module}'), but no implementation was given in options.tools`,
          { file },
        ),
      );
    }
  }
  if (problems.length) {
    const first = problems[0]!;
    const detail =
      problems.length === 1
        ? first.detail
        : `${problems.length} problems:\n${problems.map((p) => `  ${p.message}`).join("\n")}`;
    throw new AgentError(
      first.code,
      detail,
      problems.length === 1 ? { node: first.node, loc: graph.nodes.find((n) => n.name === first.node)?.loc, file } : {},
    );
  }

  const start = graph.start ?? (nodes.has("start1") ? "start1" : graph.nodes[0]!.name);
  const toolNames = new Set(options.toolNames);
  const toolUse = new Map<string, boolean>();
  // Per kind, then per base: a step that takes `X.*` looks its list up without building a key.
  const series: Record<SeriesKind, Map<string, string[]>> = { lettered: new Map(), numbered: new Map() };
  const collect = (kind: SeriesKind, base: string) => {
    const known = series[kind];
    let list = known.get(base);
    if (!list) known.set(base, (list = candidates(kind, base, (name) => nodes.has(name))));
    return list;
  };
  const tracked = new Set<string>();
  for (const node of graph.nodes) {
    if (/\.\d+$/.test(node.name)) tracked.add(node.name);
    for (const list of STATE_FIELDS.map((f) => node[f])) {
      for (const s of list ?? []) tracked.add(s);
    }
  }
  return {
    graph,
    file,
    hash: graphIdentity(graph),
    nodes,
    start,
    tracked,
    interjections: [...nodes.values()].filter((c) => c.node.condition_interjection !== undefined),
    config: options.config,
    limits: options.limits,
    maxSteps: options.maxSteps,
    maxCallDepth: options.maxCallDepth,
    isolated: options.isolated ?? false,
    usesTool(code) {
      if (!toolNames.size) return false;
      let uses = toolUse.get(code);
      if (uses === undefined) toolUse.set(code, (uses = callsAny(code, toolNames, options.limits)));
      return uses;
    },
    lettered: (base) => collect("lettered", base),
    numbered: (base) => collect("numbered", base),
  };
}
