/**
 * Every diagnostic the compiler can report, by stable snake_case code, with the wording of its
 * messages. Codes are part of the public surface (tests, editors and docs refer to them), so a
 * code is never renamed or reused. A report site names the code, one of its messages and the
 * message's parameters; the text is written here only, so one problem reads the same wherever
 * it is found.
 */
export type Severity = "error" | "warning";

interface Entry {
  severity: Severity;
  /** One line for the docs: when the diagnostic is reported. */
  summary: string;
  /** The messages, by name: each makes the text from what the report site knows. */
  messages: Record<string, (p: never) => string>;
}

export const DIAGNOSTICS = {
  syntax_error: {
    severity: "error",
    summary: "The file is not valid TypeScript (its first syntax error, or the '{' a missing '}' belongs to).",
    messages: {
      typescript: (p: { text: string }) => p.text,
      unclosed_brace: () =>
        "this '{' is never closed: its '}' is missing (judging by the indentation, the '}' after it closes an outer block)",
    },
  },
  nesting_too_deep: {
    severity: "error",
    summary:
      "Code nested more than 400 levels deep (parentheses, brackets, blocks, statements inside one another); an else-if chain counts as one level.",
    messages: {
      code_nests: (p: { limit: number }) =>
        `this code nests more than ${p.limit} levels deep (parentheses, brackets, blocks, calls and statements inside one another count): split it into smaller parts, a variable or a method for each`,
      file_nests: (p: { maxNesting: number }) =>
        `the file nests too deeply for the compiler (more than ${p.maxNesting} levels of parentheses, brackets, blocks, statements or else-if branches inside one another): split it into smaller parts, a variable or a method for each`,
    },
  },
  no_agent_class: {
    severity: "error",
    summary: "The file exports no class: an agent is an exported class.",
    messages: {
      no_export: () =>
        "no exported agent class: write 'export default class MyAgent extends Autogram { main() { ... } }'",
    },
  },
  multiple_agent_classes: {
    severity: "error",
    summary: "The file exports more than one class.",
    messages: {
      second_exported: (p: { detail: string }) =>
        `a second exported class '${p.detail}': an agent file exports exactly one class`,
    },
  },
  missing_main: {
    severity: "error",
    summary: "The agent class has no main() method.",
    messages: {
      no_main: () => "the agent class has no main() method: main() is where the conversation starts",
    },
  },
  unsupported_syntax: {
    severity: "error",
    summary:
      "A construct the agent language cannot express (the message names it), including code the evaluator refuses.",
    messages: {
      runtime_call: (p: { name: string; runtimeModule: string; tools: string }) =>
        `'${p.name}()' does not run in agent code: of ${p.runtimeModule}, code calls only ${p.tools} (nodes are made with exec_node and the shorthands); other functions go in a tool module`,
      runtime_value: (p: { name: string }) =>
        `'${p.name}' used as a value: the agent language's functions can only be called`,
      try_catch: () => "try/catch is not supported in an agent: a tool can catch its own errors",
      throw: () => "throw is not supported in an agent: end the conversation with a transition to 'quit'",
      function_declaration: () =>
        "a function declared inside a method is not supported: make it a method, or import it from a module as a tool",
      class_declaration: () => "a class declared inside a method is not supported",
      with: () => "'with' is not supported in an agent",
      debugger: () => "'debugger' is not supported in an agent: set breakpoints with 'autograms debug'",
      enum: () => "an enum is not supported in an agent: use string literals",
      statement: (p: { kind: string }) => `the statement '${p.kind}' is not supported in an agent`,
      unnamed_class: () => "an unnamed class that is not exported",
      module_level: (p: { topLevel: string }) =>
        `${p.topLevel} at module level: an agent file holds its imports and one exported class (import helper functions from another module; they become tools)`,
      export_default: (p: { name: string }) => `'export default ${p.name}' where ${p.name} is not a class of this file`,
      class_besides: (p: { other: string | undefined }) =>
        `class '${p.other}' besides the agent class: an agent file exports exactly one class`,
      import_side: (p: { module: string }) =>
        `import '${p.module}' for its side effects: an agent imports functions by name`,
      default_import: (p: { runtimeModule: string }) =>
        `a default import from '${p.runtimeModule}': import the agent language by name`,
      namespace_import: (p: { bindings: string }) =>
        `a namespace import ('import * as ${p.bindings}'): import functions by name`,
      static_member: () => "a static member: agent state lives in instance fields",
      constructor: () => "a constructor: give each field its initial value where it is declared",
      accessor: (p: { detail: string }) => `${p.detail} in an agent class`,
      member_name: () => "a member whose name is not a plain identifier (private #names, computed names)",
      class_member: () => "this kind of class member",
      method_kind: (p: { detail: string }) => `${p.detail} method: agent functions are plain methods`,
      method_without: () => "a method without a body (an overload signature)",
      destructured_parameter: () => "a destructured parameter: take the value and destructure it in the body",
      rest_parameter: () => "a rest parameter: pass an array",
      parameter_default: () =>
        "a parameter default that is not a JSON literal: calls fill a default in where they leave the argument out, so it cannot depend on other values; make the parameter optional ('x?: T') and compute the value in the body",
      parameters_main: () => "parameters on main(): main is the top level and takes none",
      evaluator_does: (p: { errorMessage: string; code: string }) =>
        `the evaluator does not run this code (${p.errorMessage}): ${p.code}`,
      spread_argument: () => "a spread argument in a call to an agent function: pass the values one by one",
      exec_node: () => "exec_node() takes one object of node fields",
      takes_instruction: (p: { exported: string }) =>
        `${p.exported}() takes an instruction and an optional object of node fields`,
      not_available: (p: { used: string; hint: string }) => `'${p.used}' is not available in agent code: ${p.hint}`,
      not_a_function: (p: { name: string; hint: string }) =>
        `'${p.name}()' is not a function agent code can call: ${p.hint}`,
      node_code: (p: { node: string; field: string; message: string }) => `node '${p.node}', ${p.field}: ${p.message}`,
      not_available_agent: (p: { object: string; member: string; offered: string }) =>
        `'${p.object}.${p.member}()' is not available in agent code: ${p.object} offers ${p.offered}`,
      not_available_agent_code: (p: { member: string; hint: string }) =>
        `'.${p.member}()' is not available in agent code: ${p.hint}`,
      this_alone: () => "'this' on its own: use 'this.field' or 'this.method(...)'",
      super: () => "'super' in an agent",
      regular_expression: (p: { text: string }) =>
        `a regular expression literal (${p.text}): the evaluator has no regular expressions; use string methods (includes, startsWith, split, replaceAll) or a tool`,
      new_evaluator: (p: { expressionText: string; newHint: string }) =>
        `'new ${p.expressionText}(...)': the evaluator does not run 'new'; ${p.newHint}`,
      expression_kind: (p: { detail: string }) => `${p.detail} in agent code`,
      await: () =>
        "'await' in agent code: the agent awaits every tool call itself, so write the call without await ('const order = lookupOrder({ id })' gives the tool's value); to handle a tool's failure, 'tryTool(lookupOrder, { id })' gives { ok: true, value } or { ok: false, error }",
      trytool_takes: () => "tryTool() takes an imported tool as its first argument, as in tryTool(lookup, { word })",
      for_await: () => "for await",
    },
  },
  unknown_action: {
    severity: "error",
    summary:
      "exec_node() with an action that is neither one of the graph format's actions nor a custom action imported from a module.",
    messages: {
      not_custom: (p: { id: string }) =>
        `'${p.id}' is not a custom action: import it from the module that defines it with defineAction, or write a built-in action's name as a string`,
      unknown_name: (p: { action: string; hint: string }) => `unknown action '${p.action}'${p.hint}`,
    },
  },
  invalid_action_definition: {
    severity: "error",
    summary:
      "A custom action whose defineAction the compiler cannot read from its module (not a literal call, an unreadable module) or that declares a bad name, base or field schema.",
    messages: {
      unreadable: (p: { id: string; problem: string }) => `action '${p.id}': ${p.problem}`,
      defineaction: (p: { id: string; module: string; problem: string }) =>
        `action '${p.id}' (defineAction in '${p.module}'): ${p.problem}`,
      two_actions: (p: { known: string; export: string; module: string; id: string }) =>
        `two actions are named '${p.known}' (export '${p.export}' of '${p.module}', and '${p.id}'): a graph names each action once`,
    },
  },
  effect_variable: {
    severity: "error",
    summary:
      "A variable a custom action's effects.assign names that the node's scope does not have or cannot write (a const, a class field in a @localFunction).",
    messages: {
      not_a_variable: (p: { action: string; name: string; method: string; hint: string }) =>
        `action '${p.action}' assigns '${p.name}' (its effects.assign), which is not a variable of ${p.method}: ${p.hint}`,
      const_local: (p: { action: string; name: string }) =>
        `action '${p.action}' assigns '${p.name}' (its effects.assign), which is declared with const here: declare it with let`,
    },
  },
  unknown_field: {
    severity: "error",
    summary: "A node field that the graph format does not have.",
    messages: {
      /** A custom action's field schema refused the value: the runtime words the problem. */
      action_schema: (p: { problem: string }) => p.problem,
      not_node: (p: { written: string; hint: string }) => `'${p.written}' is not a node field${p.hint}`,
    },
  },
  missing_field: {
    severity: "error",
    summary: "A node lacks a field its action needs (an instruction, the action itself).",
    messages: {
      /** A custom action's field schema refused the value: the runtime words the problem. */
      action_schema: (p: { problem: string }) => p.problem,
      exec_node: () => "exec_node() needs an action",
      needs_instruction: (p: { exported: string }) => `${p.exported}() needs an instruction`,
      node_needs: (p: { action: string }) => `a ${p.action} node needs an instruction`,
    },
  },
  non_literal_field: {
    severity: "error",
    summary: "A node field whose value is not known at compile time.",
    messages: {
      tools_must: () => "'tools' must be an array literal of imported tools, as in tools: [calculator, lookup]",
      tools_imported: () => "each of 'tools' is an imported tool or its name",
      node_fields: () => "node fields are written 'field: value' with a literal value",
      must_known: (p: { key: string }) =>
        `'${p.key}' must be known at compile time: write a literal (a string may be a template literal with \${...} placeholders)`,
      must_string: (p: { key: string }) =>
        `'${p.key}' must be a string or template literal; insert run-time values with \${...} placeholders`,
      must_known_compile: (p: { key: string; hint: string }) =>
        `'${p.key}' must be known at compile time: write a literal${p.hint}`,
      exec_node: () =>
        "exec_node() takes an object literal of node fields, exec_node({ action: ..., instruction: ... })",
      instruction_must: () =>
        `the instruction must be a string or template literal; insert run-time values with \${...} placeholders`,
      options_must: (p: { exported: string }) =>
        `the options of ${p.exported}() must be an object literal of node fields`,
    },
  },
  invalid_field_value: {
    severity: "error",
    summary:
      "A node field of the wrong type (a number where a list of strings belongs, ...), or a boolean_condition that is not evaluator code.",
    messages: {
      /** A custom action's field schema refused the value: the runtime words the problem. */
      action_schema: (p: { problem: string }) => p.problem,
      not_tool: (p: { name: string }) =>
        `'${p.name}' is not a tool: 'tools' lists functions the agent imports from its tool modules`,
      tools_lists: (p: { name: string }) => `'tools' lists '${p.name}' twice`,
      tools_needs: () => "'tools' needs at least one tool",
      must_string: (p: { key: string }) => `'${p.key}' must be a string`,
      wrong_type: (p: { key: string; problem: string }) => `'${p.key}' ${p.problem}`,
      boolean_condition: (p: { errorMessage: string }) =>
        `'boolean_condition' is not code the evaluator runs: ${p.errorMessage}`,
      transitions_needs: () => "'transitions' needs at least one target",
      tools_offered: (p: { action: string }) =>
        `'tools' are offered to the model at chat and thought nodes, not at a ${p.action} node`,
      schema_thought: (p: { action: string }) =>
        `'schema' gives the answer of a thought node as data, not of a ${p.action} node`,
      schema_invalid: (p: { why: string }) => `'schema' is not a JSON Schema: ${p.why}`,
    },
  },
  invalid_node_name: {
    severity: "error",
    summary: "An explicit node name that would read as a special transition (next, return, quit, $var, X.*, X.n).",
    messages: {
      special_transition: (p: { name: string }) => `'${p.name}' cannot name a node: it reads as a special transition`,
      cannot_empty: () => "a node name cannot be empty",
    },
  },
  duplicate_name: {
    severity: "error",
    summary: "Two nodes with the same name.",
    messages: {
      declared_twice: (p: { name: string }) => `'${p.name}' is declared twice in the class`,
      two_nodes: (p: { name: string; where: string }) =>
        `two nodes are named '${p.name}'${p.where}: node names must be unique`,
    },
  },
  transition_to_missing_node: {
    severity: "error",
    summary: "A transition to a node that does not exist.",
    messages: {
      transitions_does: (p: { node: string; target: string; hint: string }) =>
        `node '${p.node}' transitions to '${p.target}', which does not exist${p.hint}`,
    },
  },
  transition_choices_mismatch: {
    severity: "error",
    summary:
      "Several transitions without a question, or transition_choices / user_instruction_transitions not aligned one for one with transitions.",
    messages: {
      transitions_need: (p: { transitionsCount: number }) =>
        `${p.transitionsCount} transitions need a transition_question for the model to choose with`,
      but_give: (p: { transitionsCount: number; plural: string; choicesCount: number }) =>
        `${p.transitionsCount} transition${p.plural} but ${p.choicesCount} transition_choices: give one answer per transition, in the same order`,
      but_user: (p: { transitionsCount: number; plural: string; simulatedCount: number }) =>
        `${p.transitionsCount} transition${p.plural} but ${p.simulatedCount} user_instruction_transitions`,
    },
  },
  unknown_method: {
    severity: "error",
    summary: "this.f(...) where the class has no method f.",
    messages: {
      no_method: (p: { name: string; hint: string }) => `the agent class has no method '${p.name}'${p.hint}`,
    },
  },
  unknown_member: {
    severity: "error",
    summary: "this.x where the class has no field or method x.",
    messages: {
      no_member: (p: { name: string; hint: string }) => `the agent class has no field or method '${p.name}'${p.hint}`,
    },
  },
  not_a_method: {
    severity: "error",
    summary: "A call to something that is not an agent function (a field, main(), a method reference).",
    messages: {
      field: (p: { name: string }) => `'this.${p.name}' is a field, not a method`,
      main_top: () => "main() is the top level of the agent and cannot be called",
      used_value: (p: { member: string }) =>
        `'this.${p.member}' used as a value: agent functions can only be called, 'this.${p.member}(...)'`,
    },
  },
  unknown_decorator: {
    severity: "error",
    summary: "A method decorator other than @func, @localFunction, @globalFunction.",
    messages: {
      main_takes: () => "main() takes no decorator: it is the top level, not a function",
      method_takes: () => "a method takes one decorator: @func, @localFunction or @globalFunction",
      func_localfunction: (p: { expressionText: string; hint: string }) =>
        `unknown decorator '@${p.expressionText}': use @func, @localFunction or @globalFunction${p.hint}`,
    },
  },
  argument_count: {
    severity: "error",
    summary: "A call with more or fewer arguments than the method has parameters.",
    messages: {
      takes_but: (p: { name: string; expected: string; detail: string; argumentsCount: number }) =>
        `'${p.name}' takes ${p.expected} argument${p.detail} but is called with ${p.argumentsCount}`,
    },
  },
  this_in_local_function: {
    severity: "error",
    summary: "this.x in a local function, which at run time sees only its own arguments (reported once per function).",
    messages: {
      run_time: (p: { name: string; method: string; others: string }) =>
        `'this.${p.name}' in local function '${p.method}'${p.others}, which at run time sees only its own arguments: pass the value as an argument, or make it a @func or @globalFunction`,
    },
  },
  local_shadows_field: {
    severity: "error",
    summary: "A local variable with the name of a class field where both would share one scope at run time.",
    messages: {
      main_name: (p: { name: string }) =>
        `local '${p.name}' of main() has the name of field '${p.name}': main's variables are the global scope, so rename the local`,
      globalfunction_name: (p: { name: string; method: string }) =>
        `local '${p.name}' of @globalFunction '${p.method}' has the name of field '${p.name}' and would overwrite it: rename the local`,
      uses_both: (p: { method: string; name: string }) =>
        `'${p.method}' uses both local '${p.name}' and 'this.${p.name}', which are one variable at run time: rename the local`,
      parameter_name: (p: { param: string; method: string }) =>
        `parameter '${p.param}' of '${p.method}' has the name of a field it would hide at run time: rename the parameter`,
    },
  },
  shadowed_variable: {
    severity: "error",
    summary:
      "A block-scoped variable that shadows another of the same function (a function has one scope at run time).",
    messages: {
      shadows_name: (p: { text: string }) =>
        `'${p.text}' shadows a variable of the same name in this function; a function has one scope at run time, so rename one of them`,
    },
  },
  unsafe_name: {
    severity: "error",
    summary:
      "A field, variable, parameter, method or object-literal key named __proto__, which JavaScript reads as an object's prototype rather than as a key of the JSON objects memory is kept in.",
    messages: {
      member_cannot: (p: { unsafeName: string }) =>
        `a member cannot be named '${p.unsafeName}': JavaScript reads it as an object's prototype, so the field would not be kept in memory; choose another name`,
      key_initial: (p: { unsafeName: string; name: string }) =>
        `the key '${p.unsafeName}' in the initial value of field '${p.name}': JavaScript reads it as the object's prototype, not as a key; choose another key`,
      parameter_cannot: (p: { unsafeName: string }) =>
        `a parameter cannot be named '${p.unsafeName}': JavaScript reads it as an object's prototype; choose another name`,
      variable_cannot: (p: { unsafeName: string }) =>
        `a variable cannot be named '${p.unsafeName}': JavaScript reads it as an object's prototype, so it would not be kept in memory; choose another name`,
    },
  },
  non_literal_global: {
    severity: "error",
    summary: "A class field whose initial value is not a JSON literal.",
    messages: {
      initial_value: (p: { name: string }) =>
        `the initial value of field '${p.name}' must be a JSON literal (strings, numbers, booleans, null, arrays and objects of them)`,
    },
  },
  reserved_name: {
    severity: "error",
    summary: "A variable, field or method whose name the runtime reserves.",
    messages: {
      automatic_variable: (p: { name: string }) =>
        `'${p.name}' is an automatic variable that the runtime sets; choose another name`,
      method_cannot: (p: { name: string }) =>
        `a method cannot be named '${p.name}': its entry node would read as a special transition`,
      automatic_variable_runtime: (p: { param: string }) =>
        `'${p.param}' is an automatic variable that the runtime sets; choose another name`,
      choose_another: (p: { text: string; detail: string }) =>
        `'${p.text}' is reserved for ${p.detail}; choose another name`,
      automatic_variable_runtime_sets: (p: { name: string }) =>
        `'this.${p.name}' is an automatic variable: the runtime sets it and agents only read it`,
    },
  },
  conditional_agent_call: {
    severity: "error",
    summary:
      "An agent call where it cannot be hoisted out of its expression: in a callback, an optional call's arguments, the right of ||= / &&= / ??= whose target has effects, a placeholder of a node that a jump enters (by name, X.*, X.n, $var, or an interjection).",
    messages: {
      inside_callback: () =>
        "an agent call inside a callback cannot run there: the callback runs within one code node; loop with for...of instead",
      always_run: (p: { conditional: string }) =>
        `an agent call in ${p.conditional} would always run once hoisted out of the expression: write the condition as an if`,
      right_whose: (p: { operator: string }) =>
        `an agent call right of '${p.operator}' whose target is not a variable or a plain member: put the target's key in a variable first`,
      loop_variable: () => "an agent call in a loop variable",
      placeholder_node: (p: { name: string; why: string }) =>
        `an agent call in a placeholder of node '${p.name}', which is entered by a jump (${p.why}): the jump would skip the call, which runs before the node; compute the value into a variable first`,
    },
  },
  jump_outside_loop: {
    severity: "error",
    summary: "break or continue with no enclosing loop or switch (or an unknown label).",
    messages: {
      unknown_label: (p: { kind: string; label: string }) =>
        `'${p.kind} ${p.label}': no enclosing statement has that label`,
      break: () => "'break' outside a loop or switch",
      continue: () => "'continue' outside a loop",
      continue_names: (p: { label: string | undefined }) =>
        `'continue ${p.label}' names a statement that is not a loop`,
    },
  },
  void_node_value: {
    severity: "error",
    summary: "The value of a node that produces none (set_prompt and the other prompt nodes) is used.",
    messages: {
      produces_no: (p: { action: string }) => `a ${p.action} node produces no value to use`,
    },
  },
  undefined_comparison: {
    severity: "warning",
    summary:
      "A strict comparison with undefined: values kept between nodes are JSON, where a missing value is null (compare with == null).",
    messages: {
      value_kept: (p: { text: string }) =>
        `'${p.text}': a value kept between nodes is never undefined (memory is JSON: a missing value is null); compare with == null`,
    },
  },
  global_write_dropped: {
    severity: "warning",
    summary:
      "A @func method writes this.x (in code, or through a custom action's effects.assign); the write is dropped when the function returns.",
    messages: {
      written_func: (p: { name: string; method: string }) =>
        `'this.${p.name}' is written in @func '${p.method}', whose writes are dropped when it returns: use @globalFunction to keep them`,
      written_by_node: (p: { name: string; method: string; action: string }) =>
        `'this.${p.name}' is written by action '${p.action}' (its effects.assign) in @func '${p.method}', whose writes are dropped when it returns: use @globalFunction to keep them`,
    },
  },
  unreachable_code: {
    severity: "warning",
    summary:
      'A statement no path reaches: after return, break, continue, or a node whose transitions leave out "next", and no transition names it.',
    messages: {
      statement_before: () =>
        "unreachable code: the statement before does not go on to this one, and no transition leads here",
    },
  },
  type_error: {
    severity: "error",
    summary:
      "What TypeScript's checker finds wrong in the agent file (a tool called with arguments its type does not take, a thought<T> value used as another type), with the nearest tsconfig.json; skipped with --no-typecheck.",
    messages: {
      typescript: (p: { text: string; code: number; hint: string }) => `${p.text} (TS${p.code})${p.hint}`,
      tsconfig: (p: { problem: string }) => `the project's tsconfig.json: ${p.problem}`,
    },
  },
  internal_error: {
    severity: "error",
    summary: "The compiler failed on this input: a bug in the compiler, please report it.",
    messages: {
      compiler_failed: (p: { detail: string }) =>
        `the compiler failed on this file (${p.detail}); please report it with the file`,
    },
  },
  // The spreadsheet importer's (autograms import; docs/spreadsheets.md).
  csv_syntax: {
    severity: "error",
    summary: "The text is not well-formed CSV (an unclosed quote, text after a closing quote).",
    messages: {
      csv: (p: { text: string }) => p.text,
    },
  },
  csv_empty: {
    severity: "error",
    summary: "The file has no header row or no node rows.",
    messages: {
      spreadsheet_header: () => "the spreadsheet has a header but no node rows",
      spreadsheet_first: () =>
        "the spreadsheet is empty: the first row must name the columns (name, action, transitions, instruction, ...)",
    },
  },
  csv_unknown_column: {
    severity: "error",
    summary: "A header that is not one of the original's columns.",
    messages: {
      no_header: () => "a column without a header has cells filled in: give it a header, or empty it",
      unknown: (p: { value: string; suggestion: string }) => `unknown column '${p.value}'${p.suggestion}`,
    },
  },
  csv_duplicate_column: {
    severity: "error",
    summary: "Two headers that name the same column.",
    messages: {
      duplicate: (p: { value: string; columnLetter: string; previousValue: string | undefined }) =>
        `column '${p.value}' is the same column as ${p.columnLetter} ('${p.previousValue}')`,
    },
  },
  csv_missing_column: {
    severity: "error",
    summary: "The header has no name or no action column.",
    messages: {
      header_no: (p: { required: string }) => `the header has no '${p.required}' column`,
    },
  },
  csv_extra_cell: {
    severity: "error",
    summary: "A filled cell to the right of the last header.",
    messages: {
      filled_right: (p: { shortText: string }) =>
        `a filled cell right of the last column ('${p.shortText}'); give the column a header or empty the cell`,
    },
  },
  csv_missing_cell: {
    severity: "error",
    summary: "A node row without a name, an action or transitions.",
    messages: {
      node_no: () => "the node has no name",
      node_no_action: () => "the node has no action",
      node_no_transitions: () => "the node has no transitions (write quit to end the conversation there)",
    },
  },
  csv_unknown_action: {
    severity: "error",
    summary: "An action that is not one of the original's actions.",
    messages: {
      actions: (p: { actionText: string; actionNames: string }) =>
        `unknown action '${p.actionText}'; the actions are: ${p.actionNames}`,
    },
  },
  csv_invalid_number: {
    severity: "error",
    summary: "A number column with text that is not a number in range.",
    messages: {
      must_comma: (p: { fieldName: string; shortText: string }) =>
        `${p.fieldName} must be comma-separated numbers of at least 0, not '${p.shortText}'`,
      must_whole: (p: { fieldName: string; shortText: string }) =>
        `${p.fieldName} must be a whole number of at least 0, not '${p.shortText}'`,
      must_not: (p: { fieldName: string; shortText: string }) =>
        `${p.fieldName} must be a number from 0 to 1, not '${p.shortText}'`,
    },
  },
  csv_invalid_json: {
    severity: "error",
    summary: "A JSON column (a thought's schema) whose text is not a JSON object.",
    messages: {
      must_object: (p: { fieldName: string; shortText: string }) =>
        `${p.fieldName} must be a JSON object, not '${p.shortText}'`,
    },
  },
  csv_invalid_name: {
    severity: "error",
    summary: "A callable node name f(a, b) whose function or parameters are not identifiers.",
    messages: {
      looks_like: (p: { trimmedName: string }) =>
        `'${p.trimmedName}' looks like a callable node f(a, b), but its function name and parameters must be identifiers`,
    },
  },
  csv_choice_gap: {
    severity: "error",
    summary: "A lettered column (transition_choice_c) filled after an empty one (transition_choice_b).",
    messages: {
      filled_but: (p: { prefix: string; letter: string; letter2: string }) =>
        `${p.prefix}_${p.letter} is filled but ${p.prefix}_${p.letter2} is empty: lettered columns must be filled from a without gaps, one per transition`,
    },
  },
  csv_unknown_function: {
    severity: "error",
    summary: "A function node calling a function that no callable node f(...) defines.",
    messages: {
      not_call: (p: { kind: string; instruction: string }) =>
        `a ${p.kind} node's instruction must be a call f(arg, ...), not '${p.instruction}'`,
      undefined: (p: { callee: string }) =>
        `'${p.callee}' is not a function: define it with a callable node named ${p.callee}(...)`,
    },
  },
  csv_function_kind: {
    severity: "error",
    summary: "A function called with different actions (function, local_function, global_function).",
    messages: {
      called_here: (p: { callee: string | undefined; kind: string; action: string; row: number }) =>
        `function '${p.callee}' is called as ${p.kind} here but as ${p.action} in row ${p.row}; a function has one kind`,
    },
  },
  csv_duplicate_function: {
    severity: "error",
    summary: "Two callable nodes for the same function.",
    messages: {
      already_defined: (p: { fname: string; row: number }) =>
        `function '${p.fname}' is already defined by the callable node in row ${p.row}`,
    },
  },
  csv_invalid_graph: {
    severity: "error",
    summary:
      "The imported graph breaks a rule of the graph format (a duplicate name, a transition to a missing node, ...).",
    messages: {
      /** The graph format's rule, as validateGraph words it. */
      graph_rule: (p: { text: string }) => p.text,
    },
  },
  csv_assignment_kept: {
    severity: "warning",
    summary:
      "An instruction the original would have cut at its first '=' as an assignment to a non-variable; kept whole.",
    messages: {
      original_read: (p: { keptPrefix: string }) =>
        `the original would read this instruction as assigning to '${p.keptPrefix}' (text before its first '='); kept whole as text`,
    },
  },
  csv_invalid_code: {
    severity: "error",
    summary:
      "A code cell, condition, call argument or return expression that the evaluator refuses, or Python of the original's that has no translation (see docs/spreadsheets.md).",
    messages: {
      character_write: (p: { problem: string; character: number; shortText: string }) =>
        `${p.problem} (at character ${p.character} of '${p.shortText}'); write the evaluator's code instead (docs/spreadsheets.md)`,
      code_problem: (p: { message: string }) => `the ${p.message}`,
      unknown_call: (p: { message: string; tools: string }) =>
        `the ${p.message}; a sheet names no modules: give the import the tools its code calls (autograms import --tools MODULE, importSpreadsheet's tools option; given: ${p.tools})`,
    },
  },
  csv_internal_error: {
    severity: "error",
    summary: "The importer failed on this input: a bug, please report it.",
    messages: {
      importer_failed: (p: { detail: string }) =>
        `the importer failed on this input (a bug, please report it): ${p.detail}`,
    },
  },
  csv_code_variable: {
    severity: "warning",
    summary:
      "'$name' in code: the original spliced the text in; the graph's code sees variables as values and keeps '$name' as written.",
    messages: {
      original_pasted: (p: { variable: string | undefined }) =>
        `'$${p.variable}' in code: the original pasted the variable's text into the code; here it becomes the variable's value, parsed as JSON when it is text ((typeof ${p.variable} === "string" ? JSON.parse(${p.variable}) : ${p.variable}))`,
    },
  },
} as const satisfies Record<string, Entry>;

type Catalogue = typeof DIAGNOSTICS;
export type DiagnosticCode = keyof Catalogue;
/** The names of a diagnostic's messages. */
export type MessageName<C extends DiagnosticCode> = keyof Catalogue[C]["messages"] & string;
/** What a message is made from: nothing, or one object of parameters. */
export type MessageArgs<C extends DiagnosticCode, M extends MessageName<C>> = Catalogue[C]["messages"][M] extends (
  ...args: infer A
) => string
  ? A
  : never;

/** The text of message `name` of diagnostic `code`. */
export function diagnosticMessage<C extends DiagnosticCode, M extends MessageName<C>>(
  code: C,
  name: M,
  ...args: MessageArgs<C, M>
): string {
  // The signature ties `args` to the message; inside, the messages of every code are one type.
  const messages = DIAGNOSTICS[code].messages as Record<string, (...args: unknown[]) => string>;
  return messages[name]!(...args);
}
