/**
 * Memory leaves the runtime sealed with a checksum and comes back through `openMemory`, which
 * refuses anything that is not memory, was edited outside the runtime, or belongs to another
 * agent, and lets a conversation continue on an edited graph where the resume rule allows
 * (resume.ts).
 */
import type { JsonValue } from "@autograms/graph";
import { AgentError } from "../errors.js";
import { Digests } from "./digest.js";
import { freezeChecked, freezeMemory, isSealed, markSealed } from "./freeze.js";
import { LEGACY_VERSION, legacyChecksum } from "./legacy.js";
import { MEMORY_FORMAT, MEMORY_VERSION, type Memory, type MemoryBody } from "./types.js";
import { memoryShapeError } from "./shape.js";
import { resumable, type ResumeProgram } from "./resume.js";

/**
 * What memory is made on and checked against: the compiled graph (the engine's `Program` is one;
 * named here by what memory reads, so memory does not depend on the engine above it).
 */
export interface MemoryProgram extends ResumeProgram {
  config: { defaultPrompt: string; defaultUserPrompt: string };
}

export function freshMemory(program: MemoryProgram): MemoryBody {
  const { config, graph } = program;
  return {
    format: MEMORY_FORMAT,
    version: MEMORY_VERSION,
    graph: { agent: graph.agent, hash: program.hash },
    turn: 0,
    done: false,
    stack: [
      {
        scope: "main",
        node: "",
        id: "",
        vars: structuredClone(graph.globals) as Record<string, JsonValue>,
        turns: [],
        prompt: config.defaultPrompt,
        userPrompt: config.defaultUserPrompt,
      },
    ],
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
  return resumable(program, verifiedMemory(value));
}

/** Memory whose integrity holds (what it is, its checksum), whichever build it was made on. */
export function verifiedMemory(value: unknown): Memory {
  return isSealed(value) ? value : checkedMemory(value);
}

function checkedMemory(value: unknown): Memory {
  if (
    value === null ||
    typeof value !== "object" ||
    Array.isArray(value) ||
    (value as { format?: unknown }).format !== MEMORY_FORMAT
  ) {
    throw new AgentError(
      "bad_memory",
      `this is not conversation memory (expected an object with format "${MEMORY_FORMAT}")`,
    );
  }
  const v = value as Record<string, unknown>;
  if (v.version !== MEMORY_VERSION && v.version !== LEGACY_VERSION) {
    throw new AgentError(
      "bad_memory",
      `memory version ${JSON.stringify(v.version)} is not supported (this runtime reads versions ${LEGACY_VERSION} and ${MEMORY_VERSION})`,
    );
  }
  const shape = memoryShapeError(v);
  if (shape) throw new AgentError("bad_memory", `corrupt memory: ${shape}`);
  const memory = value as unknown as Memory;
  const { checksum: sum, ...body } = memory;
  const digests = new Digests(false);
  const expected = v.version === LEGACY_VERSION ? legacyChecksum(body) : digests.memory(body);
  if (expected !== sum) {
    throw new AgentError(
      "tampered_memory",
      "memory was changed after the runtime saved it (checksum mismatch); refusing to continue from it",
    );
  }
  freezeChecked(memory);
  digests.keep();
  return (v.version as number) === LEGACY_VERSION ? { ...memory, version: MEMORY_VERSION } : memory;
}
