/**
 * The built-in actions of the graph format, each written once with the facts that the types, the
 * JSON Schema, the validator, the engine, the compiler and the spreadsheet derive their lists from.
 */

/**
 * What a family's instruction is: `text` for the model or the prompt (with `$variables`, and the
 * original's `x=` prefix in a spreadsheet), a `call` `f(arg, ...)`, evaluator `code`, or `none`
 * (optional and unused).
 */
export type InstructionKind = "text" | "call" | "code" | "none";

interface FamilySpec {
  instruction: InstructionKind;
  /**
   * A node of its own in the agent language (`exec_node`, a shorthand) and so a custom action's
   * possible `base`; the other families are statements of the language (calls, code).
   */
  node?: true;
}

/** The families of actions: what their instruction is, and how the agent language writes them. */
export const ACTION_FAMILIES = {
  chat: { instruction: "text", node: true },
  thought: { instruction: "text", node: true },
  prompt: { instruction: "text", node: true },
  call: { instruction: "call" },
  transition: { instruction: "none", node: true },
  code: { instruction: "code" },
} as const satisfies Record<string, FamilySpec>;

export type ActionFamily = keyof typeof ACTION_FAMILIES;

interface ActionSpec {
  family: ActionFamily;
  /** The model writes the node's text: it may be offered tools (the node's `tools` field). */
  model?: true;
  /** The agent language's function for it: a shorthand `chatExact(...)`, a decorator `@func`. */
  language?: string;
}

/** Every built-in action, in the order lists of them are shown. */
export const ACTION_SPECS = {
  chat: { family: "chat", model: true, language: "chat" },
  chat_exact: { family: "chat", language: "chatExact" },
  chat_suffix: { family: "chat", model: true, language: "chatSuffix" },
  thought: { family: "thought", model: true, language: "thought" },
  thought_exact: { family: "thought", language: "thoughtExact" },
  thought_qa: { family: "thought", model: true, language: "thoughtQa" },
  set_prompt: { family: "prompt", language: "setPrompt" },
  append_prompt: { family: "prompt", language: "appendPrompt" },
  set_user_prompt: { family: "prompt", language: "setUserPrompt" },
  append_user_prompt: { family: "prompt", language: "appendUserPrompt" },
  function: { family: "call", language: "func" },
  local_function: { family: "call", language: "localFunction" },
  global_function: { family: "call", language: "globalFunction" },
  transition: { family: "transition" },
  code: { family: "code" },
} as const satisfies Record<string, ActionSpec>;

type Specs = typeof ACTION_SPECS;
export type Action = keyof Specs;
/** The actions whose spec has `P`. */
type ActionsWhere<P> = { [A in Action]: Specs[A] extends P ? A : never }[Action];
type NodeFamily = { [F in ActionFamily]: (typeof ACTION_FAMILIES)[F] extends { node: true } ? F : never }[ActionFamily];

export type ChatAction = ActionsWhere<{ family: "chat" }>;
export type ThoughtAction = ActionsWhere<{ family: "thought" }>;
export type PromptAction = ActionsWhere<{ family: "prompt" }>;
export type FunctionKind = ActionsWhere<{ family: "call" }>;
/** The actions whose model writes the text and may call the node's tools. */
export type ModelAction = ActionsWhere<{ model: true }>;
/** The chat and thought actions whose text is the instruction itself. */
export type ExactAction = Exclude<ChatAction | ThoughtAction, ModelAction>;
/**
 * The built-in actions a custom action may take as its `base`, and `exec_node` may name: the
 * behaviour it inherits for the hooks it does not give (calls and code are statements of the
 * language, not bases).
 */
export type BaseAction = ActionsWhere<{ family: NodeFamily }>;

const actionsWhere = <A extends Action>(test: (spec: Specs[Action], action: Action) => boolean): readonly A[] =>
  (Object.keys(ACTION_SPECS) as Action[]).filter((a) => test(ACTION_SPECS[a], a)) as A[];

export const ACTIONS: readonly Action[] = actionsWhere(() => true);
export const CHAT_ACTIONS: readonly ChatAction[] = actionsWhere((s) => s.family === "chat");
export const THOUGHT_ACTIONS: readonly ThoughtAction[] = actionsWhere((s) => s.family === "thought");
export const PROMPT_ACTIONS: readonly PromptAction[] = actionsWhere((s) => s.family === "prompt");
export const FUNCTION_KINDS: readonly FunctionKind[] = actionsWhere((s) => s.family === "call");
export const MODEL_ACTIONS: readonly ModelAction[] = actionsWhere((s) => "model" in s);
export const BASE_ACTIONS: readonly BaseAction[] = actionsWhere((s) => "node" in ACTION_FAMILIES[s.family]);
/** The actions whose instruction is text (for the model, the reply, the prompt) with `$variables`. */
export const TEXT_ACTIONS: readonly Action[] = actionsWhere((s) => ACTION_FAMILIES[s.family].instruction === "text");

/** Whether `action` names a built-in action (a custom action's node has a name of its own). */
export function isBuiltinAction(action: string): action is Action {
  return Object.hasOwn(ACTION_SPECS, action);
}

/** A built-in action's family; none for a custom action. */
export function familyOf(action: string): ActionFamily | undefined {
  return isBuiltinAction(action) ? ACTION_SPECS[action].family : undefined;
}

export function instructionKind(action: Action): InstructionKind {
  return ACTION_FAMILIES[ACTION_SPECS[action].family].instruction;
}

export function isFunctionKind(action: string): action is FunctionKind {
  return isBuiltinAction(action) && ACTION_SPECS[action].family === "call";
}

const byLanguageName = <A extends Action>(actions: readonly A[]): Readonly<Record<string, A>> =>
  Object.fromEntries(
    actions.flatMap((a) => {
      const spec: ActionSpec = ACTION_SPECS[a];
      return spec.language === undefined ? [] : [[spec.language, a]];
    }),
  );

/** The agent language's shorthands (`chatExact(instruction, fields)`) by name: the actions whose instruction is text. */
export const SHORTHAND_ACTIONS: Readonly<Record<string, Action>> = byLanguageName(TEXT_ACTIONS);

/** The agent language's method decorators (`@func`, ...) by name: the kind of function each makes. */
export const DECORATOR_KINDS: Readonly<Record<string, FunctionKind>> = byLanguageName(FUNCTION_KINDS);

/** The original's names for actions that have another name here (its `python_function` is `code`). */
export const ORIGINAL_ACTION_NAMES: Readonly<Record<string, Action>> = { python_function: "code" };
