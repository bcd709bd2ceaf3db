/**
 * The checksum of memory (format version 2), built so that sealing a turn hashes only what the
 * turn made: each frame's turns are hashed as a stream whose state is kept per turn list, so a
 * list that extends another continues from the other's state; a frame's digest and an object
 * value's digest are kept per (frozen) object. Memory read back from outside has no such state
 * and is hashed whole, once; what that computes is kept only once the memory has passed.
 *
 * Text is hashed as UTF-16 code units, each string prefixed with its length, so no two memories
 * hash the same text and no escaping is needed; variables and visit counts are hashed with sorted
 * keys, so memory a database stored with its keys reordered still matches.
 */
import { createHash, type Hash } from "node:crypto";
import type { JsonValue } from "../graph/types.js";
import { canonicalJson } from "./hash.js";
import { extendedBy } from "./turns.js";
import type { Frame, MemoryBody, Turn } from "./types.js";

const ENCODING = "utf16le";

const str = (s: string): string => `${s.length}:${s}`;
const opt = (s: string | undefined): string => (s === undefined ? "-" : str(s));

function turnText(t: Turn): string {
  return `T${str(t.node)}${str(t.kind)}${str(t.agent)}${opt(t.user)}${opt(t.instruction)}${opt(t.category)}`;
}

function sha1(text: string): string {
  return createHash("sha1").update(text, ENCODING).digest("hex");
}

/**
 * Digests computed for objects that may not be kept yet: when memory from outside is checked, its
 * digests go here and are kept (`keep`) only once it passed and was frozen, so an object the
 * caller could still change never has a digest remembered.
 */
export class Digests {
  private readonly turnStates = new Map<readonly Turn[], Hash>();
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
    const text = `F${str(f.scope)}${opt(f.function)}${str(f.node)}${str(f.id)}${str(f.prompt)}${str(f.userPrompt)}${opt(f.carried)}`
      + this.vars(f.vars) + this.turns(f.turns);
    return this.remember(f, sha1(text));
  }

  private vars(vars: Record<string, JsonValue>): string {
    let text = "V";
    for (const k of Object.keys(vars).sort()) {
      const v = vars[k]!;
      text += str(k) + (v !== null && typeof v === "object" ? `o${this.value(v)}` : `j${str(JSON.stringify(v) ?? "null")}`);
    }
    return text;
  }

  private value(v: object): string {
    const known = this.cached(v);
    return known !== undefined ? known : this.remember(v, sha1(canonicalJson(v)));
  }

  /** The digest of a turn list: the stream over its turns, continued from the list it extends when that one's state is known. */
  private turns(list: readonly Turn[]): string {
    return this.turnState(list).copy().digest("hex");
  }

  private turnState(list: readonly Turn[]): Hash {
    const known = turnStates.get(list) ?? this.turnStates.get(list);
    if (known) return known;
    let from = 0;
    let state: Hash | undefined;
    for (let base = extendedBy(list); base; base = extendedBy(base)) {
      const s = turnStates.get(base) ?? this.turnStates.get(base);
      if (s) {
        state = s.copy();
        from = base.length;
        break;
      }
    }
    state ??= createHash("sha1");
    // One update for all the new turns: a string built by concatenation costs far less than a call per turn.
    let text = "";
    for (let i = from; i < list.length; i++) text += turnText(list[i]!);
    if (text) state.update(text, ENCODING);
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

/** Streams' states per turn list and digests per frame or object value, for frozen objects only. */
const turnStates = new WeakMap<readonly Turn[], Hash>();
const objectDigests = new WeakMap<object, string>();
