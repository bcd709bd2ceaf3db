import type { BaseAction } from "@autograms/graph";
import type { WrittenFieldValues } from "@autograms/graph";
import type { ActionDefinition } from "./actions.js";

/**
 * The object literal an agent passes to `exec_node`. Every value must be a literal known at
 * compile time; template-literal placeholders become runtime `$variable` references.
 */
export interface ExecNodeFields extends CommonNodeFields {
  action: BaseAction;
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
export type CustomNodeFields<A extends ActionDefinition<any, any>> = CommonNodeFields & {
  action: A;
} & (A extends ActionDefinition<infer V, any> ? V : never);

/**
 * The fields of every node, whatever its action: the vocabulary's node fields an agent writes
 * (graph/vocabulary/fields.ts, where each is documented), but `action` and `tools`, which
 * `ExecNodeFields` types for the agent language.
 */
export interface CommonNodeFields extends Omit<WrittenFieldValues, "action" | "tools"> {}

/** Further fields of a shorthand call (`chat(instruction, fields)`). */
export type ShorthandFields = Omit<ExecNodeFields, "action" | "instruction">;
