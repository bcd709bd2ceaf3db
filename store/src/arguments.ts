/**
 * What a caller passes the store, checked before any of it reaches a query: a caller in
 * JavaScript (no compiler to stop it) that passes the wrong kind of value gets `bad_request`
 * naming the argument, not an error from inside the database driver, nor a value stored that
 * breaks the thread later (a lease's lifetime given as text made its expiry text).
 */
import { shownValue } from "@autograms/runtime";
import { StoreError } from "./errors.js";
import { type AcquireOptions, BUSY_POLICIES, type PruneOptions, type StoreOptions } from "./types.js";
import type { NewExperiment } from "./experiments.js";

const refuse = (message: string) => new StoreError("bad_request", message);

const NUL = (field: string) => `${field}: contains a NUL character (U+0000), which a store cannot keep in text`;

/**
 * Text the store keeps (a message id, a user's message, a reply): Postgres TEXT cannot hold U+0000
 * (SQLite can), so it is refused on both, and a message is kept, or refused, the same whatever the store.
 */
export function keepable(text: string | null, field: "messageId" | "user" | "reply"): void {
  if (text !== null && typeof text !== "string")
    throw refuse(`${field}: must be a string or null, not ${shownValue(text)}`);
  if (text !== null && text.includes("\u0000")) throw refuse(NUL(field));
}

/** An id as the store keys it: text, not empty, without NUL. */
function key(id: unknown, field: string, what: string): void {
  if (typeof id !== "string") throw refuse(`${field}: must be a string, not ${shownValue(id)}`);
  if (id === "") throw refuse(`${field}: ${what} is not empty`);
  if (id.includes("\u0000")) throw refuse(NUL(field));
}

export const threadKey = (id: unknown, field: "threadId" | "id" | "newId" = "threadId"): void =>
  key(id, field, "a thread id");

/** A turn's number (`memoryAt`, `fork`): 0 is before the first turn. */
export function turnNumber(turn: unknown): void {
  if (turn === undefined) throw refuse("turn: must be a whole number, at least 0, not undefined");
  whole(turn, "turn", 0);
}

/** A run's id: text (a run named otherwise was never recorded). */
export function runKey(id: unknown): void {
  if (typeof id !== "string") throw refuse(`runId: must be a string, not ${shownValue(id)}`);
}

/** A whole number of at least `min`, or absent. */
function whole(value: unknown, field: string, min: number): void {
  if (value === undefined) return;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min)
    throw refuse(`${field}: must be a whole number, at least ${min}, not ${shownValue(value)}`);
}

/** One of `choices`, or absent. */
function oneOf(value: unknown, field: string, choices: readonly string[]): void {
  if (value !== undefined && !choices.includes(value as string))
    throw refuse(`${field}: must be one of ${choices.join(", ")}, not ${shownValue(value)}`);
}

function ofType(value: unknown, field: string, type: "string" | "boolean" | "function"): void {
  if (value !== undefined && typeof value !== type)
    throw refuse(`${field}: must be a ${type}, not ${shownValue(value)}`);
}

/** The options given a value: one given as undefined leaves the default (or the URL's) in place. */
export function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The options a store is opened with (a URL's are checked as it is read). */
export function checkStoreOptions(options: StoreOptions): void {
  whole(options.snapshotEvery, "snapshotEvery", 1);
  whole(options.snapshotBytes, "snapshotBytes", 1);
  whole(options.leaseMs, "leaseMs", 1);
  whole(options.pollMs, "pollMs", 1);
  whole(options.memoryCache, "memoryCache", 0);
  whole(options.memoryCacheMb, "memoryCacheMb", 0);
  ofType(options.now, "now", "function");
}

/** How a caller asks for a thread (`acquire`, `takeThread`); its message id and text are checked apart. */
export function checkAcquireOptions(options: AcquireOptions): void {
  oneOf(options.policy, "policy", BUSY_POLICIES);
  oneOf(options.sameMessage, "sameMessage", ["wait", "refuse"]);
  whole(options.ttlMs, "ttlMs", 1);
  whole(options.waitMs, "waitMs", 0);
  ofType(options.owner, "owner", "string");
  ofType(options.agent, "agent", "string");
  ofType(options.create, "create", "boolean");
  ofType(options.runId, "runId", "string");
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal))
    throw refuse(`signal: must be an AbortSignal, not ${shownValue(options.signal)}`);
}

/** `listThreads`' options: a limit below 0 is none. */
export function checkListOptions(options: { limit?: number; agent?: string }): void {
  const { limit } = options;
  if (limit !== undefined && (typeof limit !== "number" || !Number.isSafeInteger(limit)))
    throw refuse(`limit: must be a whole number (below 0: no limit), not ${shownValue(limit)}`);
  ofType(options.agent, "agent", "string");
}

export function checkPruneOptions(options: PruneOptions): void {
  whole(options.olderThanMs, "olderThanMs", 0);
  whole(options.keepTurns, "keepTurns", 0);
}

/** A thread's title: text, or null (called by its first message again). */
export function checkTitle(title: unknown): void {
  if (title !== null && typeof title !== "string")
    throw refuse(`title: must be a string or null, not ${shownValue(title)}`);
}

/** A thread's model settings as the store keeps them: text it does not read, or null (none). */
export function checkSettingsText(settings: unknown): void {
  if (settings !== null && typeof settings !== "string")
    throw refuse(`settings: must be a string (JSON text) or null, not ${shownValue(settings)}`);
  if (typeof settings === "string" && settings.includes("\u0000")) throw refuse(NUL("settings"));
}

/** An experiment's id: text, not empty, without NUL. */
export const experimentKey = (id: unknown): void => key(id, "id", "an experiment id");

/** An experiment to keep: the names it is listed by as text, a report and a graph as objects. */
export function checkExperiment(e: NewExperiment): void {
  if (e.id !== undefined) experimentKey(e.id);
  for (const field of ["build", "model"] as const) {
    if (typeof e[field] !== "string") throw refuse(`${field}: must be a string, not ${shownValue(e[field])}`);
    if (e[field].includes("\u0000")) throw refuse(NUL(field));
  }
  if (e.comparedWith !== undefined && e.comparedWith !== null) experimentKey(e.comparedWith);
  const report = e.report as Partial<NewExperiment["report"]> | null;
  if (typeof report !== "object" || report === null || !Array.isArray(report.runs) || !Array.isArray(report.cases))
    throw refuse(`report: must be an evaluation report (runs, cases), not ${shownValue(report)}`);
  if (typeof e.graph !== "object" || e.graph === null || !Array.isArray(e.graph.nodes))
    throw refuse(`graph: must be an agent's graph, not ${shownValue(e.graph)}`);
}
