// Every sample, end to end through the library API: compiled from its TypeScript source, then run
// turn by turn with a deterministic model. The conversations are data: samples/<name>/conversation.json
// where the sample ships one, else test/e2e/conversations/<name>.json. Each turn runs on a new
// Agent with only that turn's scripted answers, resuming from memory that went through JSON, so
// every turn must use exactly the answers scripted for it.
import { afterAll, describe, expect, it } from "vitest";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { compile } from "@autograms/compiler";
import { mcpTools, type McpConfig, type McpTools } from "@autograms/runtime/mcp";
import {
  Agent,
  OfflineModel,
  RUNTIME_TOOLS,
  ScriptedModel,
  applyDelta,
  type ActionDefinition,
  type ChatModel,
  type Graph,
  type JsonValue,
  type Memory,
  type Tool,
  type ToolAnswer,
  type ToolCallingModel,
  type ToolCompletion,
  type ToolCompletionRequest,
} from "@autograms/runtime";

interface Turn {
  user: string;
  agent: string | null;
  /** The turn ends the conversation with this reply (its chat node's only way on is quit). */
  done?: boolean;
  complete?: string[];
  choose?: string[];
  /** Answers to native tool-calling requests. */
  tools?: ToolAnswer[];
  /** The scope prompt that each complete() call of the turn starts with, in order. */
  prompts?: string[];
  /** Texts that the turn's model inputs contain, somewhere (a ReAct observation, for one). */
  inputs?: string[];
  /** Native tool calls: what the k-th tool result handed to the model contains. */
  toolResults?: string[];
}

interface Conversation {
  model: "offline" | "scripted" | "none";
  turns?: Turn[];
  calls?: { function: string; args: JsonValue[]; result: JsonValue }[];
  finalGlobals?: Record<string, unknown>;
  finalVisits?: Record<string, number>;
}

const samplesDir = join(import.meta.dirname, "..", "..", "samples");
const samples = readdirSync(samplesDir, { withFileTypes: true })
  .filter((e) => e.isDirectory() && existsSync(join(samplesDir, e.name, "agent.ts")))
  .map((e) => e.name)
  .sort();

function conversationOf(name: string): Conversation | null {
  for (const path of [
    join(samplesDir, name, "conversation.json"),
    join(import.meta.dirname, "conversations", `${name}.json`),
  ]) {
    if (existsSync(path)) return JSON.parse(readFileSync(path, "utf8")) as Conversation;
  }
  return null;
}

function compileSample(name: string): Graph {
  const { graph, diagnostics } = compile(readFileSync(join(samplesDir, name, "agent.ts"), "utf8"), {
    fileName: `samples/${name}/agent.ts`,
  });
  expect(diagnostics).toEqual([]);
  return graph!;
}

// The MCP servers of a sample's .mcp.json (samples/shop), started once for this file.
const mcpServers = new Map<string, Promise<McpTools>>();
afterAll(async () => {
  for (const opened of mcpServers.values()) await (await opened).close();
});

function mcpOf(name: string): Promise<McpTools> {
  let opened = mcpServers.get(name);
  if (!opened) {
    const dir = join(samplesDir, name);
    const config = JSON.parse(readFileSync(join(dir, ".mcp.json"), "utf8")) as McpConfig;
    const servers = Object.fromEntries(
      Object.entries(config.mcpServers).map(([k, v]) => [k, "command" in v ? { cwd: dir, ...v } : v]),
    );
    opened = mcpTools({ mcpServers: servers });
    mcpServers.set(name, opened);
  }
  return opened;
}

/** The sample's tools and custom actions, imported from their modules beside the agent as the agent imports them (or from its MCP servers). */
async function toolsOf(
  name: string,
  graph: Graph,
): Promise<{ tools: Record<string, Tool>; actions: ActionDefinition[] }> {
  const load = async (module: string, exported: string) => {
    const path = join(samplesDir, name, module);
    const found = existsSync(path) ? path : path.replace(/\.js$/, ".ts");
    return ((await import(found)) as Record<string, unknown>)[exported];
  };
  const tools: Record<string, Tool> = {};
  for (const [tool, { module, export: exported }] of Object.entries(graph.tools ?? {})) {
    if (module === "@autograms/runtime" && (RUNTIME_TOOLS as readonly string[]).includes(exported)) continue;
    tools[tool] = module.startsWith("mcp:")
      ? (await mcpOf(name)).servers[module.slice(4)]![exported]!
      : ((await load(module, exported)) as Tool);
  }
  const actions: ActionDefinition[] = [];
  for (const { module, export: exported } of Object.values(graph.actions ?? {}))
    actions.push((await load(module, exported)) as ActionDefinition);
  return { tools, actions };
}

const noModel: ChatModel = {
  complete: async () => {
    throw new Error("this sample needs no model");
  },
  choose: async () => {
    throw new Error("this sample needs no model");
  },
};

/**
 * The offline model, also answering a node that offers tools natively, in text and without calling
 * any (the offline model itself cannot call tools: such a node would fail).
 */
class OfflineTextModel extends OfflineModel implements ToolCallingModel {
  async completeWithTools(req: ToolCompletionRequest): Promise<ToolCompletion> {
    const messages = req.messages.flatMap((m) =>
      m.role === "tool" || m.content === null ? [] : [{ role: m.role, content: m.content }],
    );
    return {
      text: await this.complete({ messages, node: req.node, purpose: "chat" }),
      toolCalls: [],
      finishReason: "stop",
    };
  }
}

const roundTrip = (memory: Memory) => JSON.parse(JSON.stringify(memory)) as Memory;

// mulberry32, so simulated users decide the same way on every run.
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("samples end to end", () => {
  it("has a conversation for every sample", () => {
    expect(samples.length).toBeGreaterThanOrEqual(5);
    expect(samples.filter((name) => conversationOf(name) === null)).toEqual([]);
  });

  describe.each(samples)("%s", (name) => {
    const conversation = conversationOf(name);

    it("runs its conversation from source, turn by turn, to the expected replies and variables", async () => {
      if (!conversation) throw new Error(`no conversation for the sample '${name}'`);
      const graph = compileSample(name);
      const { tools, actions } = await toolsOf(name, graph);
      for (const c of conversation.calls ?? []) {
        const agent = new Agent(graph, { model: noModel, tools, actions });
        expect({ [c.function]: await agent.call(c.function, c.args) }).toEqual({ [c.function]: c.result });
      }
      const turns = conversation.turns ?? [{ user: "", agent: null }];
      let memory: Memory | undefined;
      for (const [i, turn] of turns.entries()) {
        const scripted =
          conversation.model === "scripted"
            ? new ScriptedModel({ complete: turn.complete ?? [], choose: turn.choose ?? [], tools: turn.tools ?? [] })
            : null;
        const model = scripted ?? (conversation.model === "offline" ? new OfflineModel() : noModel);
        const agent = new Agent(graph, { model, tools, actions });
        const r = await agent.reply(turn.user, memory && roundTrip(memory));
        expect({ turn: i, reply: r.reply }).toEqual({ turn: i, reply: turn.agent });
        expect(r.done).toBe(i === turns.length - 1 && (turn.agent === null || turn.done === true));
        if (scripted) {
          expect({ turn: i, remaining: scripted.remaining }).toEqual({
            turn: i,
            remaining: { complete: 0, choose: 0, tools: 0 },
          });
          const seen = scripted.calls
            .flatMap((c) => ("messages" in c.request ? c.request.messages : []).map((m) => m.content ?? ""))
            .join("\n");
          for (const text of turn.inputs ?? []) expect(seen, `turn ${i}`).toContain(text);
          if (turn.toolResults) {
            const last = scripted.calls.filter((c) => c.kind === "tools").at(-1)?.request as
              | ToolCompletionRequest
              | undefined;
            const results = (last?.messages ?? []).flatMap((m) => (m.role === "tool" ? [m.content] : []));
            expect(results.length, `turn ${i}`).toBe(turn.toolResults.length);
            for (const [k, text] of turn.toolResults.entries())
              expect(results[k], `turn ${i}, tool result ${k}`).toContain(text);
          }
          if (turn.prompts) {
            const starts = scripted.calls
              .filter((c) => c.kind === "complete")
              .map((c) => (c.request as { messages: { content: string }[] }).messages[0]!.content);
            expect(starts.map((text, k) => text.startsWith(`${turn.prompts![k]}\n\n`) || text)).toEqual(
              turn.prompts.map(() => true),
            );
          }
        }
        // A store keeps the first memory and the deltas: rebuilt from them (through JSON), memory is
        // the reply's, and the next turn resumes from the rebuilt memory.
        const rebuilt = applyDelta(memory && roundTrip(memory), JSON.parse(JSON.stringify(r.delta)));
        expect(rebuilt, `turn ${i}`).toEqual(r.memory);
        expect(JSON.stringify(r.delta).length, `turn ${i}: the delta is smaller than the memory`).toBeLessThan(
          i ? JSON.stringify(r.memory).length : Infinity,
        );
        memory = rebuilt;
      }
      expect(memory!.stack[0]!.vars).toMatchObject(conversation.finalGlobals ?? {});
      expect(memory!.visits).toMatchObject(conversation.finalVisits ?? {});
    });

    it("holds simulated conversations with the offline model to their end", async () => {
      const graph = compileSample(name);
      const { tools, actions } = await toolsOf(name, graph);
      const chats = graph.nodes.some((n) => n.action.startsWith("chat"));
      for (const seed of [1, 2, 3]) {
        const sim = await new Agent(graph, { model: new OfflineTextModel(), tools, actions }).simulate({
          random: seeded(seed),
          maxTurns: 25,
        });
        expect(["quit", "end_signal", "max_turns"]).toContain(sim.ended);
        expect(sim.transcript.length > 0).toBe(chats);
        if (chats) expect(sim.transcript[0]!.role).toBe("agent");
        // The simulated user and the agent take turns.
        expect(sim.transcript.every((m, k) => m.role === (k % 2 === 0 ? "agent" : "user"))).toBe(true);
      }
    });
  });
});
