// A sample agent with its tools, as a user runs it: compiled from its agent.ts, each tool imported
// from the module the graph names (relative to the agent), the model an OpenAIModel on a server.
import { existsSync, readFileSync } from "node:fs";
import { compile } from "@autograms/compiler";
import { Agent, OpenAIModel, type AgentConfig, type Graph, type Memory, type Tool } from "@autograms/runtime";
import type { OpenAIServer } from "../support/openai-server.js";

const SAMPLES = new URL("../../samples/", import.meta.url);

export function sampleGraph(name: string): Graph {
  const file = `samples/${name}/agent.ts`;
  const { graph, diagnostics } = compile(readFileSync(new URL(`${name}/agent.ts`, SAMPLES), "utf8"), {
    fileName: file,
  });
  if (!graph) throw new Error(`${file} does not compile: ${JSON.stringify(diagnostics)}`);
  return graph;
}

/** The implementations of the graph's tools, from the modules it names; the runtime supplies its own. */
export async function sampleTools(name: string, graph: Graph): Promise<Record<string, Tool>> {
  const tools: Record<string, Tool> = {};
  for (const [local, info] of Object.entries(graph.tools ?? {})) {
    if (info.module === "@autograms/runtime") continue;
    const url = new URL(info.module, new URL(`${name}/`, SAMPLES));
    const source = url.pathname.endsWith(".js") && !existsSync(url) ? new URL(url.href.replace(/\.js$/, ".ts")) : url;
    const module = (await import(source.href)) as Record<string, unknown>;
    tools[local] = module[info.export] as Tool;
  }
  return tools;
}

export async function sampleAgent(
  name: string,
  server: OpenAIServer,
  config: Partial<AgentConfig> = {},
): Promise<Agent> {
  const graph = sampleGraph(name);
  const model = new OpenAIModel({ model: "test-model", baseURL: server.baseURL, apiKey: "test", maxRetries: 0 });
  return new Agent(graph, { model, tools: await sampleTools(name, graph), config: { retryDelayMs: 0, ...config } });
}

/** A conversation that resumes from plain JSON each turn, as a server that stores memory would. */
export class Conversation {
  private memory: Memory | undefined;
  constructor(private readonly agent: Agent) {}

  async say(text: string): Promise<string | null> {
    const r = await this.agent.reply(text, this.memory && JSON.parse(JSON.stringify(this.memory)));
    this.memory = r.memory;
    return r.reply;
  }

  get saved(): Memory | undefined {
    return this.memory;
  }
}
