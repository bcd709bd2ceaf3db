/**
 * A build's agent as the command's own thread holds it when worker threads play its turns
 * (`serve --watch`, `chat --watch`): Node cannot unload an ES module, so this thread never imports
 * the agent's tool and action modules (a copy per save would stay loaded); the workers do
 * (worker-builds.ts). This thread needs the graph (its hash, the stale check, `threads migrate`,
 * edits of variables, the playground, chat's replies' name) and, to compile the graph as the workers
 * do, the definitions of the tools offered to the model and which hooks and effects each custom
 * action has: the workers tell it that (`HostShape`).
 */
import {
  Agent,
  defineAction,
  defineTool,
  type ActionDefinition,
  type ChatModel,
  type FieldSchema,
  type Graph,
  type Tool,
  type ToolDefinition,
  type ToolParameters,
  toolDefinitionOf,
} from "@autograms/runtime";

/** What a worker tells of the modules it loaded: plain data, structured-cloned to the server's thread. */
export interface HostShape {
  /** The definitions of the tools that have one (made with defineTool, or an MCP server's), by name. */
  tools: Record<string, ToolDefinition>;
  actions: Record<string, { hooks: Record<Hook, boolean>; effects: ActionDefinition["effects"] }>;
}

type Hook = "instruction" | "transition" | "output";
const HOOKS: readonly Hook[] = ["instruction", "transition", "output"];

export function hostShapeOf(tools: Record<string, Tool>, actions: readonly ActionDefinition<any, any>[]): HostShape {
  const definitions: HostShape["tools"] = {};
  for (const [name, tool] of Object.entries(tools)) {
    const definition = toolDefinitionOf(tool);
    if (definition) definitions[name] = definition;
  }
  return {
    tools: definitions,
    actions: Object.fromEntries(
      actions.map((a) => [
        a.name,
        {
          hooks: Object.fromEntries(HOOKS.map((h) => [h, a[h] !== undefined])) as Record<Hook, boolean>,
          effects: a.effects,
        },
      ]),
    ),
  };
}

const elsewhere = (what: string) => () => {
  throw new Error(`${what} runs in the worker threads that play the turns, not in the command's own thread`);
};

/** Nothing in this thread plays a turn: a model that is asked anything says where the turns are played. */
const NO_MODEL: ChatModel = { complete: elsewhere("the model"), choose: elsewhere("the model") };

export function standInAgent(graph: Graph, shape: HostShape): Agent {
  const tools = Object.fromEntries(
    Object.keys(graph.tools ?? {}).map((name) => {
      const tool = elsewhere(`tool '${name}'`);
      // The model is offered the tool as the workers' agent offers it.
      const definition = shape.tools[name];
      return [
        name,
        definition
          ? defineTool({
              ...definition,
              description: definition.description as string,
              parameters: definition.parameters as ToolParameters,
              run: tool,
            })
          : tool,
      ];
    }),
  );
  const actions = Object.entries(graph.actions ?? {}).map(([name, info]) => {
    const told = shape.actions[name];
    const hook = (h: Hook) => (told?.hooks[h] ? { [h]: elsewhere(`the ${h} hook of action '${name}'`) } : {});
    return defineAction({
      name,
      ...(info.base && { base: info.base }),
      fields: (info.fields ?? {}) as Record<string, FieldSchema>,
      required: info.required ?? [],
      ...(told && { effects: told.effects }),
      ...hook("instruction"),
      ...hook("transition"),
      ...hook("output"),
    });
  });
  return new Agent(graph, { model: NO_MODEL, tools, actions });
}
