// Recording the samples' conversations, for the replay and debugger tests.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  Agent,
  OfflineModel,
  ScriptedModel,
  type ChatModel,
  type Graph,
  type Memory,
  type TraceEvent,
} from "@autograms/runtime";

export const ROOT = join(import.meta.dirname, "..", "..");

interface Conversation {
  model: "offline" | "scripted" | "none";
  turns?: { user: string; agent: string | null; complete?: string[]; choose?: string[] }[];
}

export const readJson = <T>(path: string): T => JSON.parse(readFileSync(join(ROOT, path), "utf8")) as T;
export const sampleGraph = (name: string) => readJson<Graph>(`samples/${name}/agent.graph.json`);
export const sampleSource = (name: string) => readFileSync(join(ROOT, "samples", name, "agent.ts"), "utf8");
export const sampleConversation = (name: string) => readJson<Conversation>(`samples/${name}/conversation.json`);

export function sampleModel(name: string): ChatModel {
  const c = sampleConversation(name);
  if (c.model === "offline") return new OfflineModel();
  return new ScriptedModel({
    complete: c.turns!.flatMap((t) => t.complete ?? []),
    choose: c.turns!.flatMap((t) => t.choose ?? []),
  });
}

export interface Recorded {
  replies: (string | null)[];
  memories: Memory[];
  /** Events of each turn. */
  turns: TraceEvent[][];
  events: TraceEvent[];
  jsonl: string;
}

/** Runs a sample's recorded conversation with its model, tracing every step. */
export async function record(
  name: string,
  graph = sampleGraph(name),
  users = sampleConversation(name).turns!.map((t) => t.user),
): Promise<Recorded> {
  const agent = new Agent(graph, { model: sampleModel(name) });
  const out: Recorded = { replies: [], memories: [], turns: [], events: [], jsonl: "" };
  let memory: Memory | undefined;
  for (const user of users) {
    const turn: TraceEvent[] = [];
    const r = await agent.reply(user, memory, { trace: (e) => turn.push(structuredClone(e)) });
    memory = r.memory;
    out.replies.push(r.reply);
    out.memories.push(r.memory);
    out.turns.push(turn);
    out.events.push(...turn);
    if (r.done) break;
  }
  out.jsonl = out.events.map((e) => JSON.stringify(e)).join("\n") + "\n";
  return out;
}
