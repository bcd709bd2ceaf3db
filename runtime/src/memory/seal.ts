/**
 * Memory leaves the runtime sealed with a checksum and comes back through `openMemory`, which
 * refuses anything that is not memory, was edited outside the runtime, or belongs to another
 * graph, and lets a conversation continue on an edited graph when every node it stands on is
 * still there and unchanged.
 */
import type { Graph, JsonValue, Loc } from "../graph/types.js";
import { AgentError } from "../errors.js";
import { Digests } from "./digest.js";
import { freezeChecked, freezeMemory, isSealed, markSealed } from "./freeze.js";
import { LEGACY_VERSION, legacyChecksum } from "./legacy.js";
import { MEMORY_FORMAT, MEMORY_VERSION, type Frame, type Memory, type MemoryBody } from "./types.js";
import { memoryShapeError } from "./shape.js";
import { hasOwn } from "./own.js";

/**
 * What memory is made on and checked against: the compiled graph (the engine's `Program` is one;
 * named here by what memory reads, so memory does not depend on the engine above it).
 */
export interface MemoryProgram {
  graph: Pick<Graph, "agent" | "globals">;
  /** Identity of the whole graph. */
  hash: string;
  file: string | undefined;
  /** Each node's identity (`id`) and where it was written. */
  nodes: ReadonlyMap<string, { id: string; node: { loc?: Loc | undefined } }>;
  config: { defaultPrompt: string; defaultUserPrompt: string };
}

export function freshMemory(program: MemoryProgram): MemoryBody {
  const { config, graph } = program;
  return {
    format: MEMORY_FORMAT, version: MEMORY_VERSION,
    graph: { agent: graph.agent, hash: program.hash },
    turn: 0, done: false,
    stack: [{
      scope: "main", node: "", id: "", vars: structuredClone(graph.globals) as Record<string, JsonValue>, turns: [],
      prompt: config.defaultPrompt, userPrompt: config.defaultUserPrompt,
    }],
    visits: {},
  };
}

export function sealMemory(body: MemoryBody): Memory {
  freezeMemory(body);
  const memory = { ...body, checksum: new Digests(true).memory(body) };
  Object.freeze(memory);
  return markSealed(memory);
}

/**
 * Memory given back to the runtime: memory it sealed itself is taken as it is (it is frozen, so it
 * cannot have changed); anything else is checked (structure, checksum), then frozen.
 */
export function openMemory(program: MemoryProgram, value: unknown): MemoryBody {
  const body = isSealed(value) ? value : checkedMemory(value);
  return resumable(program, body);
}

function checkedMemory(value: unknown): Memory {
  if (value === null || typeof value !== "object" || Array.isArray(value) || (value as { format?: unknown }).format !== MEMORY_FORMAT) {
    throw new AgentError("bad_memory", `this is not conversation memory (expected an object with format "${MEMORY_FORMAT}")`);
  }
  const v = value as Record<string, unknown>;
  if (v.version !== MEMORY_VERSION && v.version !== LEGACY_VERSION) {
    throw new AgentError("bad_memory", `memory version ${JSON.stringify(v.version)} is not supported (this runtime reads versions ${LEGACY_VERSION} and ${MEMORY_VERSION})`);
  }
  const shape = memoryShapeError(v);
  if (shape) throw new AgentError("bad_memory", `corrupt memory: ${shape}`);
  const memory = value as unknown as Memory;
  const { checksum: sum, ...body } = memory;
  const digests = new Digests(false);
  const expected = v.version === LEGACY_VERSION ? legacyChecksum(body) : digests.memory(body);
  if (expected !== sum) {
    throw new AgentError("tampered_memory", "memory was changed after the runtime saved it (checksum mismatch); refusing to continue from it");
  }
  freezeChecked(memory);
  digests.keep();
  return (v.version as number) === LEGACY_VERSION ? { ...memory, version: MEMORY_VERSION } : memory;
}

/** Memory that passed its checks, on this program: refused when it is another agent's or stands on nodes that changed. */
function resumable(program: MemoryProgram, memory: Memory): MemoryBody {
  const { checksum: _, ...body } = memory;
  const file = program.file;
  if (body.graph.agent !== program.graph.agent) {
    throw new AgentError("foreign_memory", `this memory belongs to agent '${body.graph.agent}', not '${program.graph.agent}'`);
  }
  if (body.graph.hash === program.hash) return body;
  // The graph was edited: go on only if every node the stack stands on is still there, unchanged.
  for (const frame of body.stack) {
    if (!frame.node) continue;
    const cn = program.nodes.get(frame.node);
    const where = frame.function ? ` (in function '${frame.function}')` : "";
    if (!cn) {
      throw new AgentError("stale_memory", `the graph changed: the conversation stands on node '${frame.node}'${where}, which the graph no longer has`);
    }
    if (cn.id !== frame.id) {
      throw new AgentError("stale_memory", `the graph changed: node '${frame.node}'${where}, where the conversation stands, is not what it was when the memory was saved`,
        { node: frame.node, loc: cn.node.loc, file });
    }
  }
  const bottom = body.stack[0]!;
  const added = Object.entries(program.graph.globals).filter(([k]) => !hasOwn(bottom.vars, k));
  const stack: Frame[] = added.length
    ? [{ ...bottom, vars: { ...(structuredClone(Object.fromEntries(added)) as Record<string, JsonValue>), ...bottom.vars } }, ...body.stack.slice(1)]
    : body.stack;
  return { ...body, graph: { agent: program.graph.agent, hash: program.hash }, stack };
}
