/**
 * The checksum of memory (format version 2), built so that sealing a turn hashes only what the
 * turn made: each frame's turns are hashed as a stream whose state is kept per turn list, so a
 * list that extends another continues from the other's state; a frame's digest and an object
 * value's digest are kept per (frozen) object. Memory read back from outside has no such state
 * and is hashed whole, once; what that computes is kept only once the memory has passed.
 *
 * Strings are hashed with their lengths (turns: by block, see hashBlock), so no escaping is
 * needed. Text is hashed as UTF-8 (the fast path), or as UTF-16 code units under another tag when
 * it holds a lone surrogate (which UTF-8 cannot tell from U+FFFD), so no two memories hash the
 * same bytes. Variables and visit counts are hashed with sorted keys, so memory a database stored
 * with its keys reordered still matches.
 */
import { createHash, hash, type Hash } from "node:crypto";
import type { JsonValue } from "@autograms/graph";
import { canonicalJson } from "./hash.js";
import { extendedBy } from "./turns.js";
import type { Frame, MemoryBody, Turn } from "./types.js";

const ENCODING = "utf16le";
/** Turns are hashed by blocks of this many: one hash call per turn costs more, and a list that grows rehashes at most its last block. */
const BLOCK = 16;

/** A turn list's stream after its first `full` turns (whole blocks). */
interface TurnsState {
  hash: Hash;
  full: number;
}

const wellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

const str = (s: string): string => `${s.length}:${s}`;
const opt = (s: string | undefined): string => (s === undefined ? "-" : str(s));

/** One-shot SHA-1 (far cheaper than a Hash object for short texts): UTF-8, or UTF-16 under another tag when not well formed. */
function sha1(text: string): string {
  return wellFormed(text) ? hash("sha1", `U${text}`) : hash("sha1", Buffer.from(`W${text}`, ENCODING));
}

/**
 * Digests computed for objects that may not be kept yet: when memory from outside is checked, its
 * digests go here and are kept (`keep`) only once it passed and was frozen, so an object the
 * caller could still change never has a digest remembered.
 */
export class Digests {
  private readonly turnStates = new Map<readonly Turn[], TurnsState>();
  private readonly objects = new Map<object, string>();

  constructor(private readonly trusted: boolean) {}

  /** Remember what this check computed (the objects are frozen now). */
  keep(): void {
    for (const [list, state] of this.turnStates) turnStates.set(list, state);
    for (const [obj, d] of this.objects) objectDigests.set(obj, d);
  }

  memory(body: MemoryBody): string {
    let text = `M${str(body.format)}${body.version}|${str(body.graph.agent)}${str(body.graph.hash)}${body.turn}|${body.done ? 1 : 0}`;
    text += str(canonicalJson(body.visits)) + body.stack.length;
    for (const frame of body.stack) text += this.frame(frame);
    return sha1(text).slice(0, 32);
  }

  private frame(f: Frame): string {
    const known = this.cached(f);
    if (known !== undefined) return known;
    const text =
      `F${str(f.scope)}${opt(f.function)}${str(f.node)}${str(f.id)}${str(f.prompt)}${str(f.userPrompt)}${opt(f.carried)}` +
      this.vars(f.vars) +
      f.turns.length +
      this.turns(f.turns);
    return this.remember(f, sha1(text));
  }

  private vars(vars: Record<string, JsonValue>): string {
    let text = "V";
    for (const k of Object.keys(vars).sort()) {
      const v = vars[k]!;
      text +=
        str(k) + (v !== null && typeof v === "object" ? `o${this.value(v)}` : `j${str(JSON.stringify(v) ?? "null")}`);
    }
    return text;
  }

  private value(v: object): string {
    const known = this.cached(v);
    return known !== undefined ? known : this.remember(v, sha1(canonicalJson(v)));
  }

  /**
   * The digest of a turn list: a stream over its whole blocks of BLOCK turns, continued from the
   * state of the list it extends when that is known, then its last, partial block.
   */
  private turns(list: readonly Turn[]): string {
    const state = this.turnState(list);
    const tail = state.hash.copy();
    if (state.full < list.length) hashBlock(tail, list, state.full, list.length);
    return tail.digest("hex");
  }

  private turnState(list: readonly Turn[]): TurnsState {
    const known = turnStates.get(list) ?? this.turnStates.get(list);
    if (known) return known;
    let state: TurnsState | undefined;
    for (let base = extendedBy(list); base && !state; base = extendedBy(base))
      state = turnStates.get(base) ?? this.turnStates.get(base);
    state ??= { hash: createHash("sha1"), full: 0 };
    const full = list.length - (list.length % BLOCK);
    if (full > state.full) {
      const hash = state.hash.copy();
      for (let at = state.full; at < full; at += BLOCK) hashBlock(hash, list, at, at + BLOCK);
      state = { hash, full };
    }
    (this.trusted ? turnStates : this.turnStates).set(list, state);
    return state;
  }

  private cached(obj: object): string | undefined {
    return objectDigests.get(obj) ?? this.objects.get(obj);
  }

  private remember(obj: object, d: string): string {
    (this.trusted ? objectDigests : this.objects).set(obj, d);
    return d;
  }
}

/**
 * One block of turns: a tag, the lengths of the turns' fields (UTF-16 units; absent fields marked),
 * then their text run together, as UTF-8 when it is well formed, else as UTF-16 under another tag
 * (UTF-8 cannot tell a lone surrogate from U+FFFD). The lengths come first, so the stream reads
 * back one way only; building one text per block costs far less than a text per turn.
 */
function hashBlock(hash: Hash, list: readonly Turn[], from: number, to: number): void {
  const lengths = new Uint32Array(1 + (to - from) * 6);
  let text = "";
  let k = 1;
  for (let i = from; i < to; i++) {
    const t = list[i]!;
    text += t.node;
    lengths[k++] = t.node.length;
    text += t.kind;
    lengths[k++] = t.kind.length;
    text += t.agent;
    lengths[k++] = t.agent.length;
    k = field(t.user, lengths, k);
    if (t.user !== undefined) text += t.user;
    k = field(t.instruction, lengths, k);
    if (t.instruction !== undefined) text += t.instruction;
    k = field(t.category, lengths, k);
    if (t.category !== undefined) text += t.category;
  }
  const utf8 = wellFormed(text);
  lengths[0] = utf8 ? 0x55 : 0x57;
  hash.update(new Uint8Array(lengths.buffer));
  hash.update(text, utf8 ? "utf8" : ENCODING);
}

const ABSENT = 0xffffffff;

function field(value: string | undefined, lengths: Uint32Array, k: number): number {
  lengths[k] = value === undefined ? ABSENT : value.length;
  return k + 1;
}

/** Streams' states per turn list and digests per frame or object value, for frozen objects only. */
const turnStates = new WeakMap<readonly Turn[], TurnsState>();
const objectDigests = new WeakMap<object, string>();
