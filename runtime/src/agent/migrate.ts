/**
 * Moving a conversation that cannot resume on a new build (stale memory) to a node of the new
 * graph that the conversation may wait at: its variables and turns are kept, and the next user
 * message is taken as the answer to that node, as if it had just been said. Refused, with the
 * reason, when the node does not exist, is not one a conversation waits at, lies in a function
 * the conversation is not in, or reads variables the conversation does not have.
 */
import type { JsonValue } from "@autograms/graph";
import { AgentError } from "../errors.js";
import type { CompiledNode, Program } from "../engine/program.js";
import { requiredVariables } from "../engine/template.js";
import { hasOwn } from "../memory/own.js";
import { functionsReaching, place } from "../memory/resume.js";
import type { Frame, Memory, MemoryBody } from "../memory/types.js";

export function migrateMemory(program: Program, memory: Memory, node: string): MemoryBody {
  const { checksum: _, ...body } = memory;
  const refuse = (detail: string) =>
    new AgentError("bad_migration", `cannot move the conversation to '${node}': ${detail}`);
  if (body.graph.agent !== program.graph.agent) {
    throw new AgentError(
      "foreign_memory",
      `this memory belongs to agent '${body.graph.agent}', not '${program.graph.agent}'`,
    );
  }
  if (body.done) throw refuse("the conversation has ended (it reached 'quit')");
  const target = program.nodes.get(node);
  if (!target) throw refuse("the graph has no such node");
  if (!target.waits)
    throw refuse(
      `it is a ${target.node.action} node; a conversation waits only at nodes that reply (chat, chat_exact, chat_suffix, or a custom action that replies)`,
    );
  const stack = stackAt(program, body.stack, target, refuse);
  const missing = readVariables(target).filter((name) => !visible(stack).has(name));
  if (missing.length) {
    throw refuse(
      `it reads ${missing.map((m) => `'${m}'`).join(", ")}, which the conversation does not have${target.node.loc ? ` (${program.file ?? "<graph>"}:${target.node.loc.line}:${target.node.loc.column})` : ""}`,
    );
  }
  return { ...body, graph: { agent: program.graph.agent, hash: program.hash }, stack, visits: body.visits };
}

/** The stack standing at `target`: main's frame alone for a node of main, else the stack up to the function it is in. */
function stackAt(
  program: Program,
  frames: readonly Frame[],
  target: CompiledNode,
  refuse: (detail: string) => AgentError,
): Frame[] {
  const functions = functionsReaching(program, target.node.name);
  const at = (frame: Frame): Frame => ({ ...frame, node: target.node.name, id: target.id });
  const bottom = withGlobals(program, frames[0]!);
  if (functions === undefined || functions.has("")) return [at(bottom)];
  const top = frames[frames.length - 1]!;
  if (frames.length > 1 && top.function !== undefined && functions.has(top.function)) {
    const callers = [bottom, ...frames.slice(1, -1)].map((frame) => {
      try {
        return place(program, frame);
      } catch (e) {
        throw e instanceof AgentError
          ? refuse(
              `the conversation is inside '${top.function}', but the call it returns to cannot resume: ${e.detail}`,
            )
          : e;
      }
    });
    return [...callers, at(top)];
  }
  const inside = frames.length > 1 ? `the conversation is inside '${top.function}'` : "the conversation is in main";
  throw refuse(
    `it is in function ${[...functions].map((f) => `'${f}'`).join(", ")}, and ${inside}; move it to a node of main or of the function it is inside`,
  );
}

function withGlobals(program: Program, bottom: Frame): Frame {
  const added = Object.entries(program.graph.globals).filter(([k]) => !hasOwn(bottom.vars, k));
  return added.length
    ? {
        ...bottom,
        vars: { ...(structuredClone(Object.fromEntries(added)) as Record<string, JsonValue>), ...bottom.vars },
      }
    : bottom;
}

/** What a node waiting for the user reads: its texts' variables and its `$var` transitions. */
function readVariables(cn: CompiledNode): string[] {
  const names = new Set<string>();
  for (const template of [cn.text, cn.question])
    for (const name of template ? requiredVariables(template) : []) names.add(name);
  for (const t of cn.node.transitions) if (t.startsWith("$")) names.add(t.slice(1));
  return [...names];
}

/** The names the top frame sees: its own, and its callers' down to the first local function (which sees only its own). */
function visible(frames: readonly Frame[]): Set<string> {
  const names = new Set<string>();
  for (let i = frames.length - 1; i >= 0; i--) {
    for (const k of Object.keys(frames[i]!.vars)) names.add(k);
    if (frames[i]!.scope === "local_function") break;
  }
  return names;
}
