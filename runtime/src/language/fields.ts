import type { Action, FunctionKind } from "../graph/types.js";
import type { ActionDefinition } from "./actions.js";

/**
 * The object literal an agent passes to `exec_node`. Every value must be a literal known at
 * compile time; template-literal placeholders become runtime `$variable` references.
 */
export interface ExecNodeFields extends CommonNodeFields {
  action: Exclude<Action, FunctionKind | "code">;
  /**
   * Tools the model may call natively at this chat or thought node: imported tools made with
   * `defineTool`, written as the imported functions or their names.
   */
  tools?: (string | ((args: never) => unknown))[];
}

/**
 * `exec_node` with a custom action imported from its module (`action: confirm`): the fields of
 * every node, and the fields the action declares, typed from their JSON Schemas.
 */
export type CustomNodeFields<A extends ActionDefinition<any, any>> = CommonNodeFields & { action: A } & (A extends ActionDefinition<infer V, any> ? V : never);

/** The fields of every node, whatever its action. */
export interface CommonNodeFields {
  /** Explicit, stable node name. Omit (or "auto") for an automatic name. */
  name?: string;
  instruction?: string;
  /** Successors: `"next"` (the following statement), node names, `"return"`, `"quit"`, `"X.*"`, `"X.n"`, `"$var"`. */
  transitions?: string[];
  transition_question?: string;
  transition_choices?: string[];
  question_prompt?: string;
  boolean_condition?: string;
  user_instruction_transitions?: string[];
  transition_probs?: number[];
  state_category?: string;
  conv_scope?: string;
  transition_context?: number;
  condition_interjection?: string;
  probability_interjection?: number;
  user_interjection?: string;
  example_interjection?: string;
  prerequisite_states?: string[];
  blocking_states?: string[];
  up_weight_states?: string[];
  down_weight_states?: string[];
  required_revisit?: string[];
  reply_start?: string;
  instruction_template?: string;
  notes?: string;
  instruction_short?: string;
  conv_context?: string;
}

/** Further fields of a shorthand call (`chat(instruction, fields)`). */
export type ShorthandFields = Omit<ExecNodeFields, "action" | "instruction">;
