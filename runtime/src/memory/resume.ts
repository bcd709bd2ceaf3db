/**
 * Whether memory saved on one build of an agent resumes on another: each frame of the call stack
 * must stand on a node that is still there, unchanged in its own content (its identity), in the
 * same function. What follows the node is the new build's: its implicit transitions are not part
 * of it. A node whose generated name changed because an enclosing statement was edited is found
 * again by its own part of the name and its identity.
 */
import type { Graph, GraphNode, JsonValue } from "@autograms/graph";
import { AgentError } from "../errors.js";
import { isLegacyIdentity, legacyNodeIdentity } from "./node-identity.js";
import { hasOwn } from "./own.js";
import type { Frame, Memory, MemoryBody } from "./types.js";

/** A node as the resume rule reads it: its identity and the node. */
export interface ResumeNode {
  id: string;
  node: GraphNode;
}

/**
 * What the resume rule reads of the compiled graph (the engine's `Program` is one; named here by
 * what it reads, so memory does not depend on the engine above it).
 */
export interface ResumeProgram {
  graph: Pick<Graph, "agent" | "globals" | "functions">;
  /** Identity of the whole graph. */
  hash: string;
  file: string | undefined;
  nodes: ReadonlyMap<string, ResumeNode>;
  start: string;
  /** `X.a`, `X.b`, … that exist, in order. */
  lettered(base: string): string[];
  /** `X.1`, `X.2`, … that exist, in order. */
  numbered(base: string): string[];
}

/** Memory that passed its checks, on this program: refused when it is another agent's or stands on nodes that changed. */
export function resumable(program: ResumeProgram, memory: Memory): MemoryBody {
  const { checksum: _, ...body } = memory;
  if (body.graph.agent !== program.graph.agent) {
    throw new AgentError(
      "foreign_memory",
      `this memory belongs to agent '${body.graph.agent}', not '${program.graph.agent}'`,
    );
  }
  if (body.graph.hash === program.hash) return body;
  const placed = body.stack.map((frame) => (frame.node ? place(program, frame) : frame));
  const bottom = placed[0]!;
  const added = Object.entries(program.graph.globals).filter(([k]) => !hasOwn(bottom.vars, k));
  const stack: Frame[] = added.length
    ? [
        {
          ...bottom,
          vars: { ...(structuredClone(Object.fromEntries(added)) as Record<string, JsonValue>), ...bottom.vars },
        },
        ...placed.slice(1),
      ]
    : placed;
  return { ...body, graph: { agent: program.graph.agent, hash: program.hash }, stack };
}

/** The frame on this program: the node it stands on found (perhaps under a new name) and its identity of today. */
export function place(program: ResumeProgram, frame: Frame): Frame {
  const where = frame.function ? ` (in function '${frame.function}')` : "";
  const stale = (what: string, cn?: ResumeNode) =>
    new AgentError(
      "stale_memory",
      `the graph changed: ${what}`,
      cn ? { node: cn.node.name, loc: cn.node.loc, file: program.file } : { node: frame.node },
    );
  if (frame.function !== undefined) {
    const info = hasOwn(program.graph.functions, frame.function) ? program.graph.functions[frame.function]! : undefined;
    if (!info) throw stale(`the conversation is inside function '${frame.function}', which the graph no longer has`);
    if (info.kind !== frame.scope)
      throw stale(
        `function '${frame.function}', which the conversation is inside, is now a ${info.kind}, not a ${frame.scope}`,
      );
  }
  const named = program.nodes.get(frame.node);
  if (isLegacyIdentity(frame.id)) {
    // Saved before identities left the flow out: only the whole node, successors' names included, can be compared.
    if (named && legacyNodeIdentity(named.node) === frame.id && inFunction(program, named, frame))
      return { ...frame, id: named.id };
    if (!named) throw stale(`the conversation stands on node '${frame.node}'${where}, which the graph no longer has`);
    throw stale(
      `node '${frame.node}'${where}, where the conversation stands, is not what it was when the memory was saved (memory saved by an older version is compared with the whole node, what follows it included)`,
      named,
    );
  }
  if (named && named.id === frame.id && inFunction(program, named, frame)) return frame;
  const found = sameNodeElsewhere(program, frame);
  if (found.length === 1) return { ...frame, node: found[0]!.node.name };
  if (found.length > 1) {
    throw stale(
      `node '${frame.node}'${where}, where the conversation stands, is gone, and ${found.length} nodes are identical to it (${found.map((c) => `'${c.node.name}'`).join(", ")}): move the conversation to one of them`,
    );
  }
  if (!named) throw stale(`the conversation stands on node '${frame.node}'${where}, which the graph no longer has`);
  if (named.id === frame.id)
    throw stale(
      `node '${frame.node}', where the conversation stands, is no longer in ${frame.function ? `function '${frame.function}'` : "main"}`,
      named,
    );
  throw stale(
    `node '${frame.node}'${where}, where the conversation stands, is not what it was when the memory was saved`,
    named,
  );
}

/** A generated name: `<function>. … .<construct>_<hash of its statement>` (`_2`, `_3` for repeats). */
const GENERATED = /^([^.]+)\.(?:.*\.)?([a-z_]+_[0-9a-f]{4}(?:_\d+)?)$/;

/**
 * The nodes of the frame's function with the same statement part of a generated name and the same
 * identity: the node it stood on, renamed because a statement around it (an `if`, a loop) changed.
 */
function sameNodeElsewhere(program: ResumeProgram, frame: Frame): ResumeNode[] {
  const own = GENERATED.exec(frame.node);
  if (!own) return [];
  const found: ResumeNode[] = [];
  for (const cn of program.nodes.values()) {
    if (cn.id !== frame.id || cn.node.name === frame.node) continue;
    const m = GENERATED.exec(cn.node.name);
    if (m && m[1] === own[1] && m[2] === own[2] && inFunction(program, cn, frame)) found.push(cn);
  }
  return found;
}

/**
 * Whether the node belongs to the frame's function: reached from its entry by transitions. A node
 * no entry reaches by name (only through `$var` or an interjection) is given the benefit of the doubt.
 */
function inFunction(program: ResumeProgram, cn: ResumeNode, frame: Frame): boolean {
  const functions = owners(program).get(cn.node.name);
  return functions === undefined || functions.has(frame.function ?? "");
}

const ownersOf = new WeakMap<ResumeProgram, Map<string, Set<string>>>();

/** The functions whose entries reach the node ("" for main); undefined when none does by name. */
export function functionsReaching(program: ResumeProgram, node: string): ReadonlySet<string> | undefined {
  return owners(program).get(node);
}

/** For each node, the functions whose entries reach it ("" for main). */
function owners(program: ResumeProgram): Map<string, Set<string>> {
  let map = ownersOf.get(program);
  if (map) return map;
  map = new Map();
  const entries: [string, string][] = [
    ["", program.start],
    ...Object.entries(program.graph.functions).map(([name, f]): [string, string] => [name, f.entry]),
  ];
  for (const [fn, entry] of entries) {
    const queue = [entry];
    while (queue.length) {
      const name = queue.pop()!;
      const fns = map.get(name) ?? new Set<string>();
      if (fns.has(fn)) continue;
      fns.add(fn);
      map.set(name, fns);
      for (const t of program.nodes.get(name)?.node.transitions ?? []) queue.push(...targets(program, t));
    }
  }
  ownersOf.set(program, map);
  return map;
}

function targets(program: ResumeProgram, target: string): string[] {
  if (target.endsWith(".*")) return program.lettered(target.slice(0, -2));
  if (target.endsWith(".n")) return program.numbered(target.slice(0, -2));
  return program.nodes.has(target) ? [target] : [];
}
