/**
 * A step event as a run's event stream carries it: every value larger than `maxValueBytes` as
 * JSON (a variable's value before or after, a code node's value, a generation's output) is
 * replaced by a stand-in, `{ "$omitted": { "bytes": N, "sha256": "..." } }`, which says how large
 * it was and lets a client tell whether two are the same. The stream of a loop that grows a
 * variable then grows by a few hundred bytes a step, not by the variable. The turn's committed
 * trace keeps the whole values.
 */
import { createHash } from "node:crypto";
import type { StoredTraceEvent } from "@autograms/store";

export const MAX_VALUE_BYTES = 4096;

/** Fields of a step event that never hold a large value. */
const SMALL_FIELDS = new Set(["kind", "node", "loc", "action", "base", "stack"]);

export interface MeasuredStep {
  event: StoredTraceEvent;
  /** The JSON size of the whole event, before values were omitted: what the turn holds. */
  bytes: number;
}

/**
 * `json`: the event's JSON text, when the caller has made it (a player does, for the trace it
 * packs). An event no longer than the threshold has no value above it (each value's JSON is part
 * of the event's): it is measured, not walked.
 */
export function boundedStep(
  event: StoredTraceEvent,
  maxValueBytes = MAX_VALUE_BYTES,
  json = JSON.stringify(event),
): MeasuredStep {
  const bytes = json.length;
  if (bytes <= maxValueBytes) return { event, bytes };
  let out: StoredTraceEvent | null = null;
  const bound = (value: unknown): unknown => {
    const json = value === undefined ? undefined : JSON.stringify(value);
    const size = json === undefined ? 0 : json.length;
    if (size <= maxValueBytes) return value;
    return { $omitted: { bytes: size, sha256: createHash("sha256").update(json!).digest("hex") } };
  };
  for (const [key, value] of Object.entries(event)) {
    if (SMALL_FIELDS.has(key)) continue;
    if (key === "changes" && Array.isArray(value)) {
      const changes = (value as { name: string; before?: unknown; after: unknown }[]).map((c) => {
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
