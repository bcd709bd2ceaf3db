// What a client of AG-UI relies on, checked on a list of events: the order rules of the protocol
// and JSON Patch (RFC 6902) applied the way a client applies a STATE_DELTA.
import { EventType } from "@ag-ui/core";
import type { AgUiEvent } from "../../../server/src/protocols/ag-ui.js";

/** Broken rules, one message each (empty: the stream is well formed). */
export function checkOrder(events: readonly AgUiEvent[]): string[] {
  const problems: string[] = [];
  const open = new Set<string>();
  const ended = new Set<string>();
  let step: string | null = null;
  events.forEach((e, i) => {
    const at = `event ${i} (${e.type})`;
    if (i === 0 && e.type !== EventType.RUN_STARTED && e.type !== EventType.RUN_ERROR)
      problems.push(`${at}: the first event must be RUN_STARTED`);
    const terminal = e.type === EventType.RUN_FINISHED || e.type === EventType.RUN_ERROR;
    if (terminal && i !== events.length - 1) problems.push(`${at}: RUN_FINISHED / RUN_ERROR must be the last event`);
    switch (e.type) {
      case EventType.TEXT_MESSAGE_START:
        if (open.has(e.messageId) || ended.has(e.messageId))
          problems.push(`${at}: message ${e.messageId} started twice`);
        if (step === null) problems.push(`${at}: a text message outside any step`);
        open.add(e.messageId);
        break;
      case EventType.TEXT_MESSAGE_CONTENT:
        if (!open.has(e.messageId)) problems.push(`${at}: content of message ${e.messageId}, which is not open`);
        break;
      case EventType.TEXT_MESSAGE_END:
        if (!open.delete(e.messageId)) problems.push(`${at}: end of message ${e.messageId}, which is not open`);
        ended.add(e.messageId);
        break;
      case EventType.STEP_STARTED:
        if (step !== null) problems.push(`${at}: step ${e.stepName} starts inside step ${step}`);
        step = e.stepName;
        break;
      case EventType.STEP_FINISHED:
        if (step !== e.stepName) problems.push(`${at}: step ${e.stepName} finishes, but the open step is ${step}`);
        if (open.size) problems.push(`${at}: step ${e.stepName} finishes with message(s) ${[...open].join(", ")} open`);
        step = null;
        break;
      case EventType.RUN_FINISHED:
      case EventType.RUN_ERROR:
        if (step !== null) problems.push(`${at}: step ${step} is still open`);
        if (open.size) problems.push(`${at}: message(s) ${[...open].join(", ")} still open`);
        break;
    }
  });
  const terminals = events.filter((e) => e.type === EventType.RUN_FINISHED || e.type === EventType.RUN_ERROR).length;
  if (terminals !== 1) problems.push(`${terminals} RUN_FINISHED / RUN_ERROR events, not exactly one`);
  return problems;
}

type Op = { op: string; path: string; value?: unknown; from?: string };

/** RFC 6902 add / remove / replace on a JSON document (what STATE_DELTA uses), returning the new document. */
export function applyPatch(doc: unknown, ops: readonly Op[]): unknown {
  let root = structuredClone(doc);
  for (const op of ops) {
    if (!["add", "remove", "replace"].includes(op.op)) throw new Error(`unexpected op ${op.op}`);
    const keys =
      op.path === ""
        ? []
        : op.path
            .slice(1)
            .split("/")
            .map((k) => k.replace(/~1/g, "/").replace(/~0/g, "~"));
    if (keys.length === 0) {
      root = op.op === "remove" ? undefined : structuredClone(op.value);
      continue;
    }
    let parent = root as Record<string, unknown> | unknown[];
    for (const k of keys.slice(0, -1)) parent = (parent as Record<string, unknown>)[k] as Record<string, unknown>;
    const last = keys.at(-1)!;
    if (parent === null || typeof parent !== "object") throw new Error(`no parent for ${op.path}`);
    if (Array.isArray(parent)) {
      const index = last === "-" ? parent.length : Number(last);
      if (op.op === "add") parent.splice(index, 0, structuredClone(op.value));
      else if (op.op === "remove") parent.splice(index, 1);
      else parent[index] = structuredClone(op.value);
    } else {
      if (op.op !== "add" && !Object.hasOwn(parent, last))
        throw new Error(`${op.op} of ${op.path}, which does not exist`);
      if (op.op === "remove") delete parent[last];
      else parent[last] = structuredClone(op.value);
    }
  }
  return root;
}
