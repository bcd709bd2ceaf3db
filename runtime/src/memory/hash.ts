import { createHash } from "node:crypto";

/**
 * JSON with object keys sorted, so equal values hash equally whatever order their keys were
 * written in (a database that reorders keys must not make memory look tampered with).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) out += (i ? "," : "") + canonicalJson(value[i]);
    return out + "]";
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).sort();
  let out = "{";
  let first = true;
  for (const k of keys) {
    const v = obj[k];
    if (v === undefined) continue;
    out += (first ? "" : ",") + JSON.stringify(k) + ":" + canonicalJson(v);
    first = false;
  }
  return out + "}";
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** A fast content digest for integrity checks (not a secret: it detects edits, not forgers). */
export function digest(text: string): string {
  return createHash("sha1").update(text).digest("hex");
}

/** Short content hash: enough to tell versions of one graph's nodes apart. */
export function identity(value: unknown): string {
  return sha256(canonicalJson(value)).slice(0, 16);
}
