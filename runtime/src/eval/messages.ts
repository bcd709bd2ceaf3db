/**
 * Every message of evaluation, by a stable code: the problems of a cases file (each reported at
 * its line), and the reasons an expectation gives when it fails. Report sites name a code and pass
 * values; the wording is here only.
 */
const quoted = (names: readonly string[]) => names.map((n) => `'${n}'`).join(", ");

export const EVAL_PROBLEMS = {
  not_yaml: (detail: string) => `not YAML: ${detail}`,
  not_json: (detail: string) => `not a JSON value: ${detail}`,
  not_a_list: () => "a YAML cases file is a list of cases, or a map with 'cases' (and 'settings')",
  bad_entry: (detail: string) => `not a case: ${detail}`,
  duplicate_name: (name: string, line: number) => `a case named '${name}' is already at line ${line}`,
  settings_twice: () => "the settings are given twice",
  unknown_node: (name: string) =>
    `the agent has no node '${name}' (name a node, or FILE:LINE for the node at that line)`,
  no_node_at_line: (ref: string) => `no node of the agent is written at ${ref}`,
  other_file: (ref: string, file: string) => `${ref} names another file than the agent's (${file})`,
  no_source: (ref: string) => `${ref} names a source line, but the graph has no source locations`,
  unknown_variable: (name: string, has: readonly string[]) =>
    `the agent has no variable '${name}'${has.length ? ` (it has ${quoted(has)})` : ""}`,
  not_global: (name: string, globals: readonly string[]) =>
    `'${name}' is not one of the agent's globals, which a case can set${globals.length ? ` (they are ${quoted(globals)})` : ""}`,
  bad_regex: (detail: string) => `reply.regex is not a regular expression: ${detail}`,
  bad_schema: (name: string, detail: string) => `varsSchema.${name} is not a JSON Schema: ${detail}`,
  no_scorer_module: (module: string, detail: string) => `cannot load the scorers' module '${module}': ${detail}`,
  no_scorer: (ref: string, has: readonly string[]) =>
    `'${ref}' is not a scorer (defineScorer)${has.length ? `; the module's scorers: ${quoted(has)}` : ""}`,
} as const;

export type EvalProblemCode = keyof typeof EVAL_PROBLEMS;

/** A problem of a cases file, at its line: `cases.yaml:12: the agent has no node 'gret'`. */
export class EvalFileError extends Error {
  constructor(
    readonly code: EvalProblemCode,
    readonly file: string,
    readonly line: number,
    readonly detail: string,
  ) {
    super(`${file}:${line}: ${detail}`);
    this.name = "EvalFileError";
  }
}

export function fileProblem<C extends EvalProblemCode>(
  code: C,
  at: { file: string; line: number },
  ...args: Parameters<(typeof EVAL_PROBLEMS)[C]>
): EvalFileError {
  const text = (EVAL_PROBLEMS[code] as (...a: unknown[]) => string)(...args);
  return new EvalFileError(code, at.file, at.line, text);
}

const shown = (v: unknown) => (v === undefined ? "nothing" : JSON.stringify(v));

/** Why an expectation failed, or what it found when it passed. */
export const EVAL_REASONS = {
  replied_at: (node: string) => `replied at '${node}'`,
  no_reply: () => "the turn gave no reply",
  path_missing: (node: string, path: readonly string[]) =>
    `'${node}' does not follow in the turn's path (${path.join(" > ") || "empty"})`,
  path_found: (path: readonly string[]) => `path ${path.join(" > ")}`,
  reply_lacks: (text: string) => `the reply does not contain ${JSON.stringify(text)}`,
  reply_has: (text: string) => `the reply contains ${JSON.stringify(text)}`,
  reply_no_match: (regex: string) => `the reply does not match /${regex}/`,
  reply_differs: (reply: string) => `the reply is ${JSON.stringify(reply)}`,
  reply_ok: () => "the reply is as expected",
  var_differs: (name: string, value: unknown, expected: unknown) =>
    `${name} is ${shown(value)}, not ${shown(expected)}`,
  var_schema: (name: string, detail: string) => `${name} ${detail}`,
  vars_ok: () => "the variables are as expected",
  no_tool_call: (name: string, called: readonly string[]) =>
    `no call of '${name}'${called.length ? ` (called: ${called.join(", ")})` : " (no tool was called)"}`,
  tool_args: (name: string, args: string) => `'${name}' was called, but not with these arguments (${args})`,
  tool_ok: (name: string, args: string) => `called ${name}(${args})`,
  over_tokens: (used: number, max: number, estimated: boolean) =>
    `${used} tokens${estimated ? " (estimated)" : ""}, over ${max}`,
  tokens: (used: number, estimated: boolean) => `${used} tokens${estimated ? " (estimated)" : ""}`,
  over_ms: (ms: number, max: number) => `${Math.round(ms)} ms, over ${max}`,
  ms: (ms: number) => `${Math.round(ms)} ms`,
  reached: (node: string) => `reached '${node}'`,
  never_reached: (node: string) => `never reached '${node}'`,
  not_ended: (how: string) => `the conversation did not end (${how})`,
  ended: (how: string) => `the conversation ended (${how})`,
  turn_failed: (message: string) => `the turn failed: ${message}`,
  scorer_threw: (scorer: string, message: string) => `scorer '${scorer}' threw: ${message}`,
  scorer_bad_value: (scorer: string, value: string) =>
    `scorer '${scorer}' returned ${value}, not a number from 0 to 1 or a boolean`,
  scorer_score: (score: number, threshold: number) => `score ${score} (passes at ${threshold})`,
  judge_threw: (message: string) => `the judge failed: ${message}`,
  judge_unreadable: (answer: string) =>
    `the judge did not answer PASS or FAIL: ${JSON.stringify(answer.slice(0, 200))}`,
  judge_no_reason: () => "(the judge gave no reason)",
  no_judge: () => "no judge model: give one (--judge-model, or a model for the agent)",
} as const;

export type EvalReasonCode = keyof typeof EVAL_REASONS;
