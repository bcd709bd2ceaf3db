/**
 * A node's identity: what a saved conversation standing on the node holds on to. It is the node's
 * own content (action, instruction, fields, and the targets its author wrote), without what the
 * code's flow decides (`implicit_transitions`: the statement after it), its location, its notes
 * or its name (a name made from where the statement sits changes when an enclosing statement is
 * edited; the resume check finds the node again by its identity).
 */
import type { GraphNode } from "@autograms/graph";
import { identity } from "./hash.js";

/** Identities of this kind start with it; older memory holds bare 16-digit hashes (see `legacyNodeIdentity`). */
export const IDENTITY_PREFIX = "2:";

export function nodeIdentity(node: GraphNode): string {
  const { loc: _loc, notes: _notes, name: _name, implicit_transitions: flow, transitions, ...own } = node;
  const implicit = new Set(flow ?? []);
  return IDENTITY_PREFIX + identity({ ...own, transitions: transitions.map((t, i) => (implicit.has(i) ? null : t)) });
}

/**
 * The identity memory saved before `IDENTITY_PREFIX` existed: the whole node but its location, so
 * its successors' names too. A frame holding one resumes only where the node and those names are
 * as they were; resumed, it takes the node's identity of today.
 */
export function legacyNodeIdentity(node: GraphNode): string {
  const { loc: _loc, implicit_transitions: _flow, ...rest } = node;
  return identity(rest);
}

export const isLegacyIdentity = (id: string): boolean => !id.startsWith(IDENTITY_PREFIX);
