/**
 * Custom node types: the original's extension point (subclass a node, override apply_instruction,
 * apply_transition, get_variable_output, register it in NODE_TYPES), as a typed definition. An
 * action module exports `defineAction({...})`; agents use it as `exec_node({ action: it, ... })`;
 * the Agent runs its hooks at the nodes of that action. See docs/custom-actions.md.
 */
import type { BaseAction, JsonValue, Loc } from "@autograms/graph";
import { actionDeclarationProblems, recordedEffects } from "@autograms/graph";
import { EFFECT_FLAG_NAMES, type EffectFlag } from "@autograms/graph";
import type { ChatMessage, CompletionPurpose } from "../model/types.js";
import type { Turn } from "../memory/types.js";

/** The JSON Schema of one field's value. */
export type FieldSchema = boolean | { readonly [keyword: string]: unknown };

/** The TypeScript type of the values a (literal) JSON Schema accepts, as far as it can tell. */
export type SchemaValue<S> = S extends { readonly enum: readonly (infer E)[] }
  ? E
  : S extends { readonly const: infer C }
    ? C
    : S extends { readonly type: "string" }
      ? string
      : S extends { readonly type: "integer" | "number" }
        ? number
        : S extends { readonly type: "boolean" }
          ? boolean
          : S extends { readonly type: "null" }
            ? null
            : S extends { readonly type: "array"; readonly items: infer I }
              ? SchemaValue<I>[]
              : S extends { readonly type: "array" }
                ? JsonValue[]
                : S extends { readonly type: "object"; readonly properties: infer P }
                  ? { [K in keyof P]?: SchemaValue<P[K]> }
                  : S extends { readonly type: "object" }
                    ? { [key: string]: JsonValue }
                    : JsonValue;

/** The fields of a node of the action, typed from their schemas; `R` are the required ones. */
export type FieldValues<F, R extends string> = {
  -readonly [K in keyof F as K extends R ? K : never]: SchemaValue<F[K]>;
} & { -readonly [K in keyof F as K extends R ? never : K]?: SchemaValue<F[K]> };

/** The model, as a hook may use it: every call is an effect of the run, traced and replayable. */
export interface ActionModel {
  /** One generation from these messages (the raw answer). */
  complete(messages: ChatMessage[], options?: { purpose?: CompletionPurpose }): Promise<string>;
  /** A multiple-choice question: the index of the chosen answer. */
  choose(prompt: string, choices: string[]): Promise<number>;
}

/** What every hook is given. Everything in it is a copy: a hook cannot change the conversation by writing to it. */
export interface ActionContext<V> {
  /**
   * The node: its name, its action, its transitions (as written), what the original's
   * apply_transition reads from its node (the question, its answers, the question's preamble and
   * how many turns it shows; as written, `$variables` unfilled), and where it comes from.
   */
  readonly node: {
    readonly name: string;
    readonly action: string;
    readonly transitions: readonly string[];
    readonly transition_question?: string;
    readonly transition_choices?: readonly string[];
    readonly question_prompt?: string;
    readonly transition_context?: number;
    readonly loc?: Loc;
  };
  /** The action's fields of this node, every string in them with its `$variables` filled in. */
  readonly fields: V;
  /** The node's instruction with its `$variables` filled in ("" when it has none). */
  readonly instruction: string;
  /**
   * The user's message not yet consumed by a chat or thought node (the original's `user_reply`),
   * or null. In `transition` and `output` after this node replied, it is the user's answer.
   */
  readonly userReply: string | null;
  /** The scope's prompt (set_prompt / append_prompt). */
  readonly prompt: string;
  /** The conversation this scope sees, oldest first (the same turns a chat node's prompt shows). */
  readonly turns: readonly Turn[];
  /** A variable as a node here would see it (the same scope rules); undefined when it does not exist. */
  variable(name: string): JsonValue | undefined;
  /** Every variable visible here. */
  variables(): Record<string, JsonValue>;
  readonly model: ActionModel;
  /** The messages a chat node here would send for this instruction (the scope's prompt, the turns, the user's message). */
  messages(instruction: string): ChatMessage[];
  /** `model.complete(messages(instruction))`: what a chat (or, with purpose "thought", a thought) node would generate. */
  generate(instruction: string, options?: { purpose?: CompletionPurpose }): Promise<string>;
}

/** What `transition` and `output` are given besides: the node's output so far. */
export interface LeavingContext<V> extends ActionContext<V> {
  /** The value the node has assigned (its instruction's output, or its base's). */
  readonly output: JsonValue;
}

/**
 * What the instruction hook did (the original's `(response, new_user_reply, response_to_user)`):
 * - `reply`: say this to the user. It consumes the user's message, and the turn ends here; the
 *   user's next message resumes at this node's transitions.
 * - `thought`: an internal answer. It consumes the user's message; the run goes on.
 * - neither: the node only computes (or does nothing); the user's message stays for a later node.
 * `output` is the node's value (default: the reply or thought, else null); `instruction` is what
 * later prompts show for this turn (default: as a chat or thought node keeps its instruction);
 * `retain: false` keeps none, so later prompts show only the reply (the original's
 * `retain_instruction=False`, as its ChatExactNode sets).
 */
export type InstructionResult = (
  | { reply: string; thought?: undefined; output?: JsonValue; instruction?: string; retain?: boolean }
  | { thought: string; reply?: undefined; output?: JsonValue; instruction?: string; retain?: boolean }
  | {
      reply?: undefined;
      thought?: undefined;
      output?: JsonValue;
      /**
       * Take the user's waiting message as read, without a turn (the original's node class
       * returning `new_user_reply=""` without appending a turn): later nodes do not see it as a
       * new message, and no prompt shows it. Declared as `effects: { consumeReply: true }`.
       */
      consumeReply?: boolean;
    }
) &
  ResultEffects;

/**
 * What a result may change besides the node's own output, each only if the action declares it
 * (`effects`), as the original's prompt nodes and variable-writing nodes do: the scope's prompt,
 * its simulated user's prompt, and variables of the scope by name.
 */
export interface ResultEffects {
  setPrompt?: string;
  setUserPrompt?: string;
  assign?: Record<string, JsonValue>;
}

/** The effects an action's results may have (ResultEffects): declared, so a graph's reader knows. */
export type DeclaredEffects = { readonly [F in EffectFlag]?: boolean } & {
  /** The variables its results may assign. */
  readonly assign?: readonly string[];
};

type MaybePromise<T> = T | Promise<T>;

export interface ActionSpec<F extends Record<string, FieldSchema>, R extends string, O = JsonValue> {
  /** What nodes write in `action` (letters, digits, _), and what the graph records it as. */
  name: string;
  /** A built-in action whose behaviour the hooks not given inherit. Without one: a transition node's (nothing). */
  base?: BaseAction;
  /** The extra node fields the action accepts: one JSON Schema per field. */
  fields?: F;
  /** The fields every node of the action must have. */
  required?: readonly R[];
  /** What the instruction hook's results may change besides the node's output (ResultEffects). */
  effects?: DeclaredEffects;
  /** What the node does when entered (the original's apply_instruction). */
  instruction?(ctx: ActionContext<FieldValues<F, R>>): MaybePromise<InstructionResult | void>;
  /**
   * Which transition the node takes (the original's apply_transition): one of the node's
   * `transitions` as written. null or undefined: the usual way (the model's choice among several).
   */
  transition?(ctx: LeavingContext<FieldValues<F, R>>): MaybePromise<string | null | undefined | void>;
  /**
   * The value the node assigns when it is left (the original's get_variable_output): after the
   * user's answer for a node that replied. Plain data; undefined is null.
   */
  output?(ctx: LeavingContext<FieldValues<F, R>>): MaybePromise<O>;
}

export type ActionHookName = "instruction" | "transition" | "output";
export const ACTION_HOOKS: readonly ActionHookName[] = ["instruction", "transition", "output"];

/**
 * A defined action: what `defineAction` returns, exported by an action module. `V`: its nodes'
 * fields; `O`: the value its nodes assign, as its output hook returns it (else any JSON value),
 * which is what `exec_node({ action })` is typed as.
 */
export interface ActionDefinition<V = Record<string, JsonValue>, O = JsonValue> {
  readonly name: string;
  readonly base: BaseAction | undefined;
  readonly fields: Readonly<Record<string, JsonValue>>;
  readonly required: readonly string[];
  readonly effects: Required<DeclaredEffects>;
  readonly instruction?: (ctx: ActionContext<V>) => MaybePromise<InstructionResult | void>;
  readonly transition?: (ctx: LeavingContext<V>) => MaybePromise<string | null | undefined | void>;
  readonly output?: (ctx: LeavingContext<V>) => MaybePromise<O>;
  /** Marks the object as made by defineAction (and carries the fields' and output's types for exec_node). */
  readonly [ACTION]: { readonly values?: V; readonly output?: O };
}

const ACTION: unique symbol = Symbol.for("autograms.action");

export function defineAction<
  const F extends Record<string, FieldSchema> = {},
  const R extends keyof F & string = never,
  O = JsonValue,
>(spec: ActionSpec<F, R, O>): ActionDefinition<FieldValues<F, R>, O> {
  const name = typeof spec?.name === "string" ? spec.name : JSON.stringify(spec?.name);
  const fields = structuredClone((spec.fields ?? {}) as Record<string, JsonValue>);
  const required = [...(spec.required ?? [])];
  const problems = actionDeclarationProblems(name, { base: spec.base, fields, required, effects: spec.effects }, false);
  for (const hook of ACTION_HOOKS) {
    if (spec[hook] !== undefined && typeof spec[hook] !== "function")
      problems.push({ message: `${hook} must be a function` });
  }
  if (problems.length) throw new TypeError(`defineAction '${name}': ${problems.map((p) => p.message).join("; ")}`);
  const definition = {
    name,
    base: spec.base,
    fields: deepFreeze(fields),
    required: Object.freeze(required),
    effects: declaredEffects(spec.effects),
    ...(spec.instruction && { instruction: spec.instruction }),
    ...(spec.transition && { transition: spec.transition }),
    ...(spec.output && { output: spec.output }),
    [ACTION]: {},
  };
  return Object.freeze(definition) as unknown as ActionDefinition<FieldValues<F, R>, O>;
}

/** The declaration as the engine reads it: every flag, and the variables (none when not declared). */
function declaredEffects(given: DeclaredEffects | undefined): Required<DeclaredEffects> {
  const recorded = recordedEffects(given) ?? {};
  const flags = Object.fromEntries(EFFECT_FLAG_NAMES.map((f) => [f, recorded[f] === true]));
  return Object.freeze({ ...flags, assign: Object.freeze(recorded.assign ?? []) }) as Required<DeclaredEffects>;
}

/** Is this an action made by defineAction? */
export function isActionDefinition(value: unknown): value is ActionDefinition {
  return typeof value === "object" && value !== null && ACTION in value;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
