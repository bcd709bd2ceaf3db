/**
 * Every diagnostic the compiler can report, by stable snake_case code. Codes are part of the
 * public surface (tests, editors and docs refer to them), so a code is never renamed or reused.
 */
export type Severity = "error" | "warning";

interface Entry {
  severity: Severity;
  /** One line for the docs: when the diagnostic is reported. */
  summary: string;
}

export const DIAGNOSTICS = {
  syntax_error: { severity: "error", summary: "The file is not valid TypeScript." },
  nesting_too_deep: { severity: "error", summary: "Code nested more than 400 levels deep (parentheses, brackets, blocks, statements inside one another); an else-if chain counts as one level." },
  no_agent_class: { severity: "error", summary: "The file exports no class: an agent is an exported class." },
  multiple_agent_classes: { severity: "error", summary: "The file exports more than one class." },
  missing_main: { severity: "error", summary: "The agent class has no main() method." },
  unsupported_syntax: { severity: "error", summary: "A construct the agent language cannot express (the message names it), including code the evaluator refuses." },
  unknown_action: { severity: "error", summary: "exec_node() with an action that is neither one of the graph format's actions nor a custom action imported from a module." },
  invalid_action_definition: { severity: "error", summary: "A custom action whose defineAction the compiler cannot read from its module (not a literal call, an unreadable module) or that declares a bad name, base or field schema." },
  unknown_field: { severity: "error", summary: "A node field that the graph format does not have." },
  missing_field: { severity: "error", summary: "A node lacks a field its action needs (an instruction, the action itself)." },
  non_literal_field: { severity: "error", summary: "A node field whose value is not known at compile time." },
  invalid_field_value: { severity: "error", summary: "A node field of the wrong type (a number where a list of strings belongs, ...), or a boolean_condition that is not evaluator code." },
  invalid_node_name: { severity: "error", summary: "An explicit node name that would read as a special transition (next, return, quit, $var, X.*, X.n)." },
  duplicate_name: { severity: "error", summary: "Two nodes with the same name." },
  transition_to_missing_node: { severity: "error", summary: "A transition to a node that does not exist." },
  transition_choices_mismatch: { severity: "error", summary: "Several transitions without a question, or transition_choices / user_instruction_transitions not aligned one for one with transitions." },
  unknown_method: { severity: "error", summary: "this.f(...) where the class has no method f." },
  unknown_member: { severity: "error", summary: "this.x where the class has no field or method x." },
  not_a_method: { severity: "error", summary: "A call to something that is not an agent function (a field, main(), a method reference)." },
  unknown_decorator: { severity: "error", summary: "A method decorator other than @func, @localFunction, @globalFunction." },
  argument_count: { severity: "error", summary: "A call with more or fewer arguments than the method has parameters." },
  this_in_local_function: { severity: "error", summary: "this.x in a local function, which at run time sees only its own arguments." },
  local_shadows_field: { severity: "error", summary: "A local variable with the name of a class field where both would share one scope at run time." },
  shadowed_variable: { severity: "error", summary: "A block-scoped variable that shadows another of the same function (a function has one scope at run time)." },
  unsafe_name: { severity: "error", summary: "A field, variable, parameter, method or object-literal key named __proto__, which JavaScript reads as an object's prototype rather than as a key of the JSON objects memory is kept in." },
  non_literal_global: { severity: "error", summary: "A class field whose initial value is not a JSON literal." },
  reserved_name: { severity: "error", summary: "A variable, field or method whose name the runtime reserves." },
  conditional_agent_call: { severity: "error", summary: "An agent call where it cannot be hoisted out of its expression: in a callback, an optional call's arguments, the right of ||= / &&= / ??= whose target has effects, a placeholder of a node that a jump enters (by name, X.*, X.n, $var, or an interjection)." },
  jump_outside_loop: { severity: "error", summary: "break or continue with no enclosing loop or switch (or an unknown label)." },
  void_node_value: { severity: "error", summary: "The value of a node that produces none (set_prompt and the other prompt nodes) is used." },
  undefined_comparison: { severity: "warning", summary: "A strict comparison with undefined: values kept between nodes are JSON, where a missing value is null (compare with == null)." },
  global_write_dropped: { severity: "warning", summary: "A @func method writes this.x; the write is dropped when the function returns." },
  unreachable_code: { severity: "warning", summary: "A statement no path reaches: after return, break, continue, or a node whose transitions leave out \"next\", and no transition names it." },
  internal_error: { severity: "error", summary: "The compiler failed on this input: a bug in the compiler, please report it." },
} as const satisfies Record<string, Entry>;

export type DiagnosticCode = keyof typeof DIAGNOSTICS;
