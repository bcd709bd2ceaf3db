import { actionDeclarationProblems, nodeFieldProblems, ownFields } from "./action-fields.js";
import type { Graph, GraphNode, Loc } from "./types.js";
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

function checkReferences(graph: Graph, codeProblems: (node: GraphNode) => CodeProblem[]): GraphError[] {
  const errors: GraphError[] = [];
  const names = new Set<string>();
  graph.nodes.forEach((node: GraphNode, i) => {
    const at = (suffix: string, message: string) =>
      errors.push({
        path: `/nodes/${i}${suffix}`,
        message: `node '${node.name}': ${message}`,
        node: node.name,
        loc: node.loc,
      });
    if (names.has(node.name)) at("/name", "duplicate node name");
    names.add(node.name);
    // A custom action's transition hook decides by itself; a model's choice needs question and answers.
    const decides = Object.hasOwn(graph.actions ?? {}, node.action) && graph.actions![node.action]!.decides === true;
    if (
      node.transitions.length > 1 &&
      !(decides && node.transition_question === undefined && node.transition_choices === undefined)
    ) {
      // Several transitions are decided by asking the model, so each needs its answer text.
      if (!node.transition_choices || node.transition_choices.length !== node.transitions.length) {
        at(
          "/transition_choices",
          `has ${node.transitions.length} transitions but ${node.transition_choices?.length ?? 0} transition_choices`,
        );
      }
      if (node.transition_question === undefined)
        at("/transition_question", "has several transitions but no transition_question");
    }
    if (node.user_instruction_transitions && node.user_instruction_transitions.length !== node.transitions.length) {
      at("/user_instruction_transitions", "user_instruction_transitions must match transitions one for one");
    }
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
    if (node.schema !== undefined) {
      if (node.action !== "thought")
        at("/schema", `only thought nodes answer with data matching a schema, not ${node.action}`);
      const v = validatorOf(node.schema);
      if (typeof v === "string") at("/schema", `schema is not a JSON Schema: ${v}`);
    }
    const offered = "tools" in node ? (node.tools as string[] | undefined) : undefined;
    if (offered !== undefined) {
      if (!(MODEL_ACTIONS as readonly string[]).includes(node.action))
        at("/tools", `only ${toolActions} nodes offer tools to the model, not ${node.action}`);
      offered.forEach((tool, j) => {
        if (!Object.hasOwn(graph.tools ?? {}, tool))
          at(`/tools/${j}`, `offers tool '${tool}', which is not in the graph's tools`);
      });
    }
  });
  graph.nodes.forEach((node, i) => {
    node.transitions.forEach((t, j) => {
      if (!targetExists(t, (name) => names.has(name))) {
        errors.push({
          path: `/nodes/${i}/transitions/${j}`,
          message: `node '${node.name}': transition to missing node '${t}'`,
          node: node.name,
          loc: node.loc,
        });
      }
    });
  });
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
