import { actionDeclarationProblems, nodeFieldProblems, ownFields } from "./action-fields.js";
import type { Graph, GraphNode, JsonValue, Loc } from "./types.js";
import { isBuiltinAction, MODEL_ACTIONS, targetExists } from "./vocabulary/index.js";
import type { CodeProblem } from "./code-fields.js";
import { validatorOf } from "./json-schemas.js";
import { validate } from "./schema-check.generated.js";
import type { ValidateFunction } from "ajv";

export interface GraphError {
  /** JSON pointer into the graph (`/nodes/3/transitions/1`). */
  path: string;
  message: string;
  /** Name of the node concerned, when there is one. */
  node?: string;
  loc?: Loc;
}

export type GraphValidation = { valid: true; graph: Graph; errors: [] } | { valid: false; errors: GraphError[] };

// The schema (schema.ts) compiled ahead of time by the build (graph/scripts/schema-check.mjs):
// loading Ajv and compiling it cost every process and worker thread about 130 ms when it started.
// Tests check its findings against Ajv compiling the schema now, and the schema against JSON
// Schema's meta-schema.
const checkSchema = validate as ValidateFunction;

/**
 * Schema check, then the checks a schema cannot express (names, targets, function table), with
 * `codeProblems` saying what in a node's code the evaluator would refuse: the format says where
 * code is, the evaluator what it runs (`validateGraph` of @autograms/sandbox passes its own).
 */
export function validateGraphWith(value: unknown, codeProblems: (node: GraphNode) => CodeProblem[]): GraphValidation {
  if (!checkSchema(value)) {
    const errors = (checkSchema.errors ?? []).slice(0, 50).map((e) => ({
      path: e.instancePath || "/",
      message: `${e.instancePath || "graph"} ${e.message ?? "is invalid"}`,
    }));
    return { valid: false, errors };
  }
  const graph = value as Graph;
  const errors = checkReferences(graph, codeProblems);
  return errors.length ? { valid: false, errors } : { valid: true, graph, errors: [] };
}

/** The actions whose model may call tools natively, as a message lists them. */
const toolActions = `${MODEL_ACTIONS.slice(0, -1).join(", ")} and ${MODEL_ACTIONS.at(-1)}`;

/**
 * A rule of a node's own fields that the node breaks: the field it concerns and the figures a
 * message about it needs, so that the graph's errors here and the compiler's diagnostics, each
 * worded for its reader, come from the one rule.
 */
export type NodeFieldFinding =
  | { rule: "transition_choices_count"; field: "transition_choices"; transitions: number; choices: number }
  | { rule: "no_transition_question"; field: "transition_question"; transitions: number }
  | {
      rule: "user_instruction_transitions_count";
      field: "user_instruction_transitions";
      transitions: number;
      simulated: number;
    }
  | { rule: "schema_at_action"; field: "schema"; action: string }
  | { rule: "schema_invalid"; field: "schema"; why: string }
  | { rule: "tools_at_action"; field: "tools"; action: string };

/** The fields those rules read; `schema` as written, which a graph's JSON Schema has checked to be an object. */
export type NodeFieldsChecked = Pick<
  GraphNode,
  "action" | "transitions" | "transition_question" | "transition_choices" | "user_instruction_transitions"
> & { schema?: JsonValue | undefined; tools?: readonly string[] | undefined };

/**
 * The rules among a node's own fields. `decides`: the node's action is a custom one whose
 * transition hook picks the transition by itself.
 */
export function nodeFieldFindings(node: NodeFieldsChecked, decides: boolean): NodeFieldFinding[] {
  const found: NodeFieldFinding[] = [];
  const transitions = node.transitions.length;
  // A custom action's transition hook decides by itself; a model's choice needs question and answers.
  if (
    transitions > 1 &&
    !(decides && node.transition_question === undefined && node.transition_choices === undefined)
  ) {
    // Several transitions are decided by asking the model, so each needs its answer text.
    const choices = node.transition_choices?.length ?? 0;
    if (choices !== transitions)
      found.push({ rule: "transition_choices_count", field: "transition_choices", transitions, choices });
    if (node.transition_question === undefined)
      found.push({ rule: "no_transition_question", field: "transition_question", transitions });
  }
  const simulated = node.user_instruction_transitions?.length;
  if (simulated !== undefined && simulated !== transitions)
    found.push({
      rule: "user_instruction_transitions_count",
      field: "user_instruction_transitions",
      transitions,
      simulated,
    });
  if (node.schema !== undefined) {
    if (node.action !== "thought") found.push({ rule: "schema_at_action", field: "schema", action: node.action });
    const v = validatorOf(node.schema);
    if (typeof v === "string") found.push({ rule: "schema_invalid", field: "schema", why: v });
  }
  if (node.tools !== undefined && !(MODEL_ACTIONS as readonly string[]).includes(node.action))
    found.push({ rule: "tools_at_action", field: "tools", action: node.action });
  return found;
}

/**
 * A rule among the graph's nodes that one breaks, with what a message about it needs: `node`
 * is the node's index, `first` the index of the earlier node of the same name, `transition` the
 * index of the transition in its node's list. The graph's errors and the compiler's diagnostics
 * (each at its own place, worded for its reader) come from the one rule.
 */
export type NodeNameFinding =
  | { rule: "duplicate_name"; node: number; first: number }
  | { rule: "transition_to_missing_node"; node: number; transition: number; target: string };

/** The rules among the nodes: unique names, then transitions that lead to a node, in node order. */
export function nodeNameFindings(nodes: readonly Pick<GraphNode, "name" | "transitions">[]): NodeNameFinding[] {
  const found: NodeNameFinding[] = [];
  const first = new Map<string, number>();
  nodes.forEach((node, i) => {
    const earlier = first.get(node.name);
    if (earlier === undefined) first.set(node.name, i);
    else found.push({ rule: "duplicate_name", node: i, first: earlier });
  });
  const exists = (name: string) => first.has(name);
  nodes.forEach((node, i) => {
    node.transitions.forEach((target, j) => {
      if (!targetExists(target, exists))
        found.push({ rule: "transition_to_missing_node", node: i, transition: j, target });
    });
  });
  return found;
}

/** A finding as the graph's errors word it. */
function findingMessage(f: NodeFieldFinding): string {
  switch (f.rule) {
    case "transition_choices_count":
      return `has ${f.transitions} transitions but ${f.choices} transition_choices`;
    case "no_transition_question":
      return "has several transitions but no transition_question";
    case "user_instruction_transitions_count":
      return "user_instruction_transitions must match transitions one for one";
    case "schema_at_action":
      return `only thought nodes answer with data matching a schema, not ${f.action}`;
    case "schema_invalid":
      return `schema is not a JSON Schema: ${f.why}`;
    case "tools_at_action":
      return `only ${toolActions} nodes offer tools to the model, not ${f.action}`;
  }
}

function checkReferences(graph: Graph, codeProblems: (node: GraphNode) => CodeProblem[]): GraphError[] {
  const errors: GraphError[] = [];
  const names = new Set(graph.nodes.map((node) => node.name));
  const among = nodeNameFindings(graph.nodes);
  const duplicates = new Set(among.flatMap((f) => (f.rule === "duplicate_name" ? [f.node] : [])));
  graph.nodes.forEach((node: GraphNode, i) => {
    const at = (suffix: string, message: string) =>
      errors.push({
        path: `/nodes/${i}${suffix}`,
        message: `node '${node.name}': ${message}`,
        node: node.name,
        loc: node.loc,
      });
    if (duplicates.has(i)) at("/name", "duplicate node name");
    const decides = Object.hasOwn(graph.actions ?? {}, node.action) && graph.actions![node.action]!.decides === true;
    const own = nodeFieldFindings(node, decides);
    // The transitions' findings come first and those of the answer (schema, tools) after the action's.
    const ofAnswer = (f: NodeFieldFinding) => f.field === "schema" || f.field === "tools";
    for (const f of own) if (!ofAnswer(f)) at(`/${f.field}`, findingMessage(f));
    node.implicit_transitions?.forEach((index, j) => {
      if (index >= node.transitions.length)
        at(
          `/implicit_transitions/${j}`,
          `implicit_transitions names transition ${index}, but the node has ${node.transitions.length}`,
        );
    });
    for (const p of codeProblems(node)) at(`/${p.field}`, p.message);
    if (!isBuiltinAction(node.action)) {
      const info = Object.hasOwn(graph.actions ?? {}, node.action) ? graph.actions![node.action]! : undefined;
      if (!info)
        at("/action", `unknown action '${node.action}': neither a built-in action nor one of the graph's actions`);
      else
        for (const p of nodeFieldProblems(node.action, info, ownFields(node)))
          at(p.field ? `/${p.field}` : "", p.message);
    }
    for (const f of own) if (ofAnswer(f)) at(`/${f.field}`, findingMessage(f));
    const offered = "tools" in node ? (node.tools as string[] | undefined) : undefined;
    offered?.forEach((tool, j) => {
      if (!Object.hasOwn(graph.tools ?? {}, tool))
        at(`/tools/${j}`, `offers tool '${tool}', which is not in the graph's tools`);
    });
  });
  for (const f of among) {
    if (f.rule !== "transition_to_missing_node") continue;
    const node = graph.nodes[f.node]!;
    errors.push({
      path: `/nodes/${f.node}/transitions/${f.transition}`,
      message: `node '${node.name}': transition to missing node '${f.target}'`,
      node: node.name,
      loc: node.loc,
    });
  }
  for (const [name, info] of Object.entries(graph.actions ?? {})) {
    for (const p of actionDeclarationProblems(name, info)) {
      errors.push({
        path: `/actions/${name}${p.field ? `/fields/${p.field}` : ""}`,
        message: `action '${name}': ${p.message}`,
      });
    }
  }
  for (const [fname, info] of Object.entries(graph.functions)) {
    if (!names.has(info.entry)) {
      errors.push({
        path: `/functions/${fname}/entry`,
        message: `function '${fname}': entry node '${info.entry}' does not exist`,
      });
    }
  }
  if (graph.start !== undefined && !names.has(graph.start)) {
    errors.push({ path: "/start", message: `start node '${graph.start}' does not exist` });
  }
  if (graph.nodes.length === 0) errors.push({ path: "/nodes", message: "graph has no nodes" });
  return errors;
}
