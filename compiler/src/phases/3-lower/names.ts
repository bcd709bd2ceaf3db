import { shortHash } from "../../hash.js";

/**
 * Automatic node names: `<prefix>.<construct>_<hash of the statement's own text>`, so adding or
 * removing other statements renames nothing. Identical statements under one prefix are told
 * apart by occurrence (`_2`, `_3`, ...).
 */
export class Namer {
  private readonly counts = new Map<string, number>();

  name(prefix: string, construct: string, key: string): string {
    const base = `${prefix}.${construct}_${shortHash(key)}`;
    const count = (this.counts.get(base) ?? 0) + 1;
    this.counts.set(base, count);
    return count === 1 ? base : `${base}_${count}`;
  }
}

/** Candidate suffixes of an `X.*` wildcard: a ... z, then aa, ab, ... */
export function letter(index: number): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz";
  return index < 26 ? alphabet[index]! : letter(Math.floor(index / 26) - 1) + alphabet[index % 26]!;
}
