/** The node fields an agent may write, with the type each value must have. */
export type FieldType = "string" | "text" | "strings" | "integer" | "numbers" | "probability" | "tools";

export const NODE_FIELDS: Record<string, FieldType> = {
  name: "string",
  action: "string",
  instruction: "text",
  transitions: "strings",
  transition_question: "text",
  transition_choices: "strings",
  question_prompt: "string",
  boolean_condition: "string",
  user_instruction_transitions: "strings",
  transition_probs: "numbers",
  state_category: "string",
  conv_scope: "string",
  transition_context: "integer",
  condition_interjection: "string",
  probability_interjection: "probability",
  user_interjection: "string",
  example_interjection: "string",
  prerequisite_states: "strings",
  blocking_states: "strings",
  up_weight_states: "strings",
  down_weight_states: "strings",
  required_revisit: "strings",
  reply_start: "string",
  instruction_template: "string",
  notes: "string",
  instruction_short: "string",
  conv_context: "string",
  tools: "tools",
};

/** Actions exec_node may name: code and calls are written as statements and this.f(...). */
export const EXEC_NODE_ACTIONS = new Set([
  "chat", "chat_exact", "chat_suffix", "thought", "thought_exact", "thought_qa",
  "set_prompt", "append_prompt", "set_user_prompt", "append_user_prompt", "transition",
]);

/** Targets with a meaning of their own; an explicit node name may not look like one. */
export function isSpecialTarget(name: string): boolean {
  return name === "next" || name === "quit" || name === "return" || name.startsWith("return ") ||
    name.startsWith("$") || name.endsWith(".*") || name.endsWith(".n");
}
