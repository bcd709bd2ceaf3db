/**
 * What agent files import. Agents are compiled, never executed: these exist so that an agent
 * type-checks under `tsc --strict` and editors can help its author. Calling any of them at run
 * time is a mistake, and says so.
 */
import type { CustomNodeFields, ExecNodeFields, ShorthandFields } from "./fields.js";
import type { ActionDefinition } from "./actions.js";
import type { JsonValue } from "@autograms/graph";

function compiledOnly(name: string): never {
  throw new Error(
    `${name}() is part of the agent language: compile the agent with 'autograms compile' and run the graph; agent files are not executed directly`,
  );
}

/** Base class of every agent. Its fields are the automatic variables of the original. */
export abstract class Autogram {
  /** The user's latest message (`$_last_user_reply`). */
  declare readonly _last_user_reply: string;
  /** Output of the node that ran last (`$_last_variable_output`). */
  declare readonly _last_variable_output: unknown;
  /** Name of the node that ran last (`$_last_state`). */
  declare readonly _last_state: string;
  abstract main(): void;
}

export function exec_node(fields: ExecNodeFields): string;
/** A node of a custom action: its output, typed as the action's output hook returns it (else any JSON value). */
export function exec_node<A extends ActionDefinition<any, any>>(
  fields: CustomNodeFields<A>,
): A extends ActionDefinition<any, infer O> ? O : JsonValue;
export function exec_node(fields: ExecNodeFields | CustomNodeFields<ActionDefinition<any, any>>): unknown {
  return compiledOnly(`exec_node(${typeof fields.action === "string" ? fields.action : fields.action.name})`);
}

export const chat: (instruction: string, fields?: ShorthandFields) => string = () => compiledOnly("chat");
export const chatExact: (instruction: string, fields?: ShorthandFields) => string = () => compiledOnly("chatExact");
export const chatSuffix: (instruction: string, fields?: ShorthandFields) => string = () => compiledOnly("chatSuffix");
/**
 * The model's text; with a `schema` field, its answer as data that matches the schema, typed `T`
 * (`thought<Order>("Extract the order", { schema: { type: "object", ... } })`).
 */
export const thought: <T = string>(instruction: string, fields?: ShorthandFields) => T = () => compiledOnly("thought");
export const thoughtExact: (instruction: string, fields?: ShorthandFields) => string = () =>
  compiledOnly("thoughtExact");
export const thoughtQa: (instruction: string, fields?: ShorthandFields) => string = () => compiledOnly("thoughtQa");
export const setPrompt: (instruction: string, fields?: ShorthandFields) => void = () => compiledOnly("setPrompt");
export const appendPrompt: (instruction: string, fields?: ShorthandFields) => void = () => compiledOnly("appendPrompt");
export const setUserPrompt: (instruction: string, fields?: ShorthandFields) => void = () =>
  compiledOnly("setUserPrompt");
export const appendUserPrompt: (instruction: string, fields?: ShorthandFields) => void = () =>
  compiledOnly("appendUserPrompt");

/** What `tryTool` gives back: the tool's value, or the message of what it threw. */
export type ToolOutcome<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * Calls an imported tool and catches its failure: a tool that throws (or whose promise rejects)
 * gives `{ ok: false, error }` for the agent to handle, instead of failing the node. An async
 * tool is awaited, as every tool call in agent code is. `tool` must be the imported function
 * itself: `tryTool(lookup, { word })`.
 */
export const tryTool: <A extends unknown[], R>(tool: (...args: A) => R, ...args: A) => ToolOutcome<Awaited<R>> = () =>
  compiledOnly("tryTool");

type Method = (this: any, ...args: any[]) => any;

/** The original's `@function`: sees the caller's variables; its own writes stay local. */
export function func<T extends Method>(method: T, _context: ClassMethodDecoratorContext): T {
  return method;
}
/** Sees only its arguments; a fresh prompt. */
export function localFunction<T extends Method>(method: T, _context: ClassMethodDecoratorContext): T {
  return method;
}
/** Shares the caller's variables and conversation; its writes survive the return. */
export function globalFunction<T extends Method>(method: T, _context: ClassMethodDecoratorContext): T {
  return method;
}
