/**
 * A step event as a run's event stream carries it: every value larger than MAX_VALUE_BYTES as
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
 * Each value is measured by its JSON's length, which a number or a plain string has without being
 * serialized (a loop's steps hold mostly those): only a value over the threshold, or one that
 * must be serialized to be measured, has its JSON made.
 */
export function boundedStep(event: StoredTraceEvent): MeasuredStep {
  let bytes = 0;
  let out: StoredTraceEvent | null = null;
  const bound = (value: unknown): unknown => {
    const measured = jsonOf(value);
    const size = typeof measured === "number" ? measured : measured.length;
    bytes += size;
    if (size <= MAX_VALUE_BYTES) return value;
    const json = typeof measured === "string" ? measured : JSON.stringify(value);
    return { $omitted: { bytes: size, sha256: createHash("sha256").update(json).digest("hex") } };
  };
  for (const [key, value] of Object.entries(event)) {
    if (SMALL_FIELDS.has(key)) continue;
    if (key === "changes" && Array.isArray(value)) {
      const changes = (value as Change[]).map((c) => {
        const after = bound(c.after);
        if (!("before" in c)) return same(after, c.after) ? c : { ...c, after };
        const before = bound(c.before);
        return same(after, c.after) && same(before, c.before) ? c : { ...c, before, after };
      });
      if (changes.some((c, i) => c !== value[i])) (out ??= { ...event }).changes = changes;
      continue;
    }
    const bounded = bound(value);
    if (!same(bounded, value)) (out ??= { ...event })[key] = bounded;
  }
  return { event: out ?? event, bytes };
}

type Change = { name: string; before?: unknown; after: unknown };

/** A value left as it was (NaN included: a step with one is not copied). */
const same = (bounded: unknown, value: unknown) => Object.is(bounded, value);

/** Characters JSON.stringify writes as an escape (lone surrogates too: such a string is measured by its JSON). */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A value's JSON, or only its length where that is known without making it (nothing: 0). */
function jsonOf(value: unknown): string | number {
  if (typeof value === "string") return ESCAPED.test(value) ? JSON.stringify(value) : value.length + 2;
  if (typeof value === "number") return Number.isFinite(value) ? String(value).length : 4;
  if (typeof value === "boolean") return value ? 4 : 5;
  if (value === null) return 4;
  if (value === undefined) return 0;
  return JSON.stringify(value) ?? 0;
}
