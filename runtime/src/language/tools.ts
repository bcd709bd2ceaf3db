/**
 * Tools that describe themselves. A tool module exports `defineTool({...})`: the result is still
 * the plain function (code nodes call it as before), and it carries what a model needs to call it
 * natively (name, description, JSON Schema of the arguments) or to read about it in a ReAct prompt.
 */
import type { ToolDefinition } from "../model/types.js";
import type { PluginInfo } from "../tool-text/types.js";

/** JSON Schema of a tool's arguments: an object whose properties are the arguments. */
export interface ToolParameters {
  type: "object";
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
  [keyword: string]: unknown;
}

export interface ToolSpec<A, R> {
  /** The name the model calls the tool by: 1 to 64 letters, digits, `_` or `-` (as OpenAI requires). */
  name: string;
  /** What the tool is for, written for the model. */
  description: string;
  parameters: ToolParameters;
  /** A name for people (the ReAct prompt's `name_for_human`); the name when absent. */
  title?: string;
  /** Ask the server to hold the model's arguments to the schema exactly (OpenAI structured outputs). */
  strict?: boolean;
  /**
   * The implementation: one object of arguments, as the model sends them. It may be async.
   * `options.signal`, when a caller gives one, is aborted when nobody waits for the call any more
   * (a turn played in a worker thread ended while the server's thread ran the tool for it).
   */
  run: (args: A, options?: ToolRunOptions) => R;
}

export interface ToolRunOptions {
  signal?: AbortSignal;
}

/**
 * The options objects the runtime itself passes after a tool's arguments. Wrappers that copy a
 * call's arguments (they are the sandbox's values) pass these on as they are: a signal cannot be
 * copied, and code in the sandbox cannot make one of these (it has no such value).
 */
const runOptions = new WeakSet<ToolRunOptions>();

export function toolRunOptions(signal: AbortSignal): ToolRunOptions {
  const options = { signal };
  runOptions.add(options);
  return options;
}

export function isToolRunOptions(value: unknown): value is ToolRunOptions {
  return typeof value === "object" && value !== null && runOptions.has(value);
}

/**
 * The tool as a function of its arguments object, with its description attached. Typed as agent
 * code sees it: `R` is the tool's value, never a promise, since the agent awaits every call (an
 * async tool's `defineTool` gives `DefinedTool<A, Awaited<R>>`, as MCP tools are typed). Called
 * directly from other code, an async tool still returns its promise: `await` it there.
 */
export type DefinedTool<A, R> = ((args: A) => R) & {
  readonly definition: ToolDefinition;
  readonly title: string;
};

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

export function defineTool<A, R>(spec: ToolSpec<A, R>): DefinedTool<A, Awaited<R>> {
  if (typeof spec?.name !== "string" || !NAME.test(spec.name)) {
    throw new TypeError(
      `defineTool: the name ${JSON.stringify(spec?.name)} must be 1 to 64 letters, digits, '_' or '-'`,
    );
  }
  if (typeof spec.run !== "function") throw new TypeError(`defineTool '${spec.name}': run must be a function`);
  if (
    spec.parameters?.type !== "object" ||
    typeof spec.parameters.properties !== "object" ||
    spec.parameters.properties === null
  ) {
    throw new TypeError(`defineTool '${spec.name}': parameters must be a JSON Schema of type "object" with properties`);
  }
  const { name, description, parameters, strict, run } = spec;
  const definition: ToolDefinition = structuredClone({
    name,
    description,
    parameters,
    ...(strict !== undefined && { strict }),
  });
  const tool = (args: A, options?: ToolRunOptions): R => run(args, options);
  Object.defineProperties(tool, {
    name: { value: name },
    definition: { value: deepFreeze(definition), enumerable: true },
    title: { value: spec.title ?? name, enumerable: true },
  });
  return tool as unknown as DefinedTool<A, Awaited<R>>;
}

/** The definition `defineTool` attached to a function, if any. */
export function toolDefinitionOf(value: unknown): ToolDefinition | undefined {
  if (typeof value !== "function") return undefined;
  const definition = (value as Partial<DefinedTool<unknown, unknown>>).definition;
  return definition && typeof definition === "object" && typeof definition.name === "string" ? definition : undefined;
}

/**
 * The tool as a ReAct prompt describes it (`buildReactPrompt`'s plugin info): one parameter entry
 * per property of its schema, `{ name, description, required, schema }`, in the schema's order.
 */
export function reactPlugin(tool: DefinedTool<never, unknown>): PluginInfo {
  const definition = toolDefinitionOf(tool);
  if (!definition) throw new TypeError("reactPlugin takes a tool made with defineTool");
  const schema = definition.parameters as unknown as ToolParameters;
  const required = new Set(schema.required ?? []);
  const parameters = Object.entries(schema.properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      description: typeof description === "string" ? description : "",
      required: required.has(name),
      schema: rest,
    };
  });
  return {
    name_for_model: definition.name,
    name_for_human: tool.title,
    description_for_model: definition.description ?? "",
    parameters,
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
