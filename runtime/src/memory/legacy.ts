/**
 * Memory of format version 1, still read: its checksum hashed the whole memory as one canonical
 * JSON text. It is checked that way once, then carried on as version 2.
 */
import { canonicalJson, digest } from "./hash.js";
import type { MemoryBody } from "./types.js";

export const LEGACY_VERSION = 1;

export function legacyChecksum(body: MemoryBody): string {
  const stack = body.stack.map((f) => [
    f.scope,
    f.function ?? null,
    f.node,
    f.id,
    canonicalJson(f.vars),
    f.prompt,
    f.userPrompt,
    f.carried ?? null,
    f.turns.map((t) => [t.node, t.kind, t.agent, t.user ?? null, t.instruction ?? null, t.category ?? null]),
  ]);
  const text = JSON.stringify([
    body.format,
    body.version,
    body.graph.agent,
    body.graph.hash,
    body.turn,
    body.done,
    canonicalJson(body.visits),
    stack,
  ]);
  return digest(text).slice(0, 32);
}
