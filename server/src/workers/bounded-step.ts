/**
 * A step event as a run's event stream carries it: every value larger than `maxValueBytes` as
 * JSON (a variable's value before or after, a code node's value, a generation's output) is
 * replaced by a stand-in, `{ "$omitted": { "bytes": N, "sha256": "..." } }`, which says how large
 * it was and lets a client tell whether two are the same. The stream of a loop that grows a
 * variable then grows by a few hundred bytes a step, not by the variable. The turn's committed
 * trace keeps the whole values.
 */
import { createHash } from "node:crypto";
import type { StoredTraceEvent } from "@autograms/runtime";

export const MAX_VALUE_BYTES = 4096;

/** Fields of a step event that never hold a large value. */
const SMALL_FIELDS = new Set(["kind", "node", "loc", "action", "base", "stack"]);

export interface MeasuredStep {
  event: StoredTraceEvent;
  /**
   * The JSON size of the values the step carries (a variable before and after, a node's value or
   * output), before any was omitted: what its step writes, as the memory budget counts it.
   */
  bytes: number;
}

/**
 * `json`: the event's JSON text, when the caller has made it (a player does, for the trace it
 * packs). An event no longer than the threshold has no value above it (each value's JSON is part
 * of the event's): its values are measured without being serialized again.
 */
export function boundedStep(event: StoredTraceEvent, maxValueBytes = MAX_VALUE_BYTES, json?: string): MeasuredStep {
  if (json !== undefined && json.length <= maxValueBytes) return { event, bytes: valuesBytes(event) };
  let bytes = 0;
  let out: StoredTraceEvent | null = null;
  const bound = (value: unknown): unknown => {
    const json = value === undefined ? undefined : JSON.stringify(value);
    const size = json === undefined ? 0 : json.length;
    bytes += size;
    if (size <= maxValueBytes) return value;
    return { $omitted: { bytes: size, sha256: createHash("sha256").update(json!).digest("hex") } };
  };
  for (const [key, value] of Object.entries(event)) {
    if (SMALL_FIELDS.has(key)) continue;
    if (key === "changes" && Array.isArray(value)) {
      const changes = (value as Change[]).map((c) => {
        const after = bound(c.after);
        if (!("before" in c)) return after === c.after ? c : { ...c, after };
        const before = bound(c.before);
        return after === c.after && before === c.before ? c : { ...c, before, after };
      });
      if (changes.some((c, i) => c !== value[i])) (out ??= { ...event }).changes = changes;
      continue;
    }
    const bounded = bound(value);
    if (bounded !== value) (out ??= { ...event })[key] = bounded;
  }
  return { event: out ?? event, bytes };
}

type Change = { name: string; before?: unknown; after: unknown };

/** What `boundedStep` counts of a step's values, the numbers and plain strings of a loop's steps measured without making their JSON. */
function valuesBytes(event: StoredTraceEvent): number {
  let bytes = 0;
  for (const key of Object.keys(event)) {
    if (SMALL_FIELDS.has(key)) continue;
    const value = event[key];
    if (key === "changes" && Array.isArray(value)) {
      for (const c of value as Change[]) bytes += jsonBytes(c.after) + ("before" in c ? jsonBytes(c.before) : 0);
    } else bytes += jsonBytes(value);
  }
  return bytes;
}

/** Characters JSON.stringify writes as an escape (lone surrogates too: such a string is measured by its JSON). */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

function jsonBytes(value: unknown): number {
  if (typeof value === "string") return ESCAPED.test(value) ? JSON.stringify(value).length : value.length + 2;
  if (typeof value === "number") return Number.isFinite(value) ? String(value).length : 4;
  if (typeof value === "boolean") return value ? 4 : 5;
  if (value === null) return 4;
  if (value === undefined) return 0;
  return JSON.stringify(value)?.length ?? 0;
}
