// What of a streaming answer is already known to be the reply's: worked out piece by piece, it
// must equal what the whole answer so far fixes, computed from scratch.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { KnownText, type TextRules } from "../../runtime/src/agent/known-text.js";
import { hasBannedPhrase } from "../../runtime/src/engine/suffix.js";

/** The definition: the answer so far as the reply would have it, less what may still change; null once banned. */
function fixedBy(raw: string, rules: TextRules): string | null {
  const text = (rules.suffix ? raw.replace(/\*+$/, "").replaceAll("**", "") : raw).trim();
  if (rules.bannedPhrases.length === 0) return text;
  if (hasBannedPhrase(text, rules.bannedPhrases)) return null;
  // Only the end that could begin a phrase is looked at; lower-casing that changes its length holds it all back.
  const longest = Math.max(...rules.bannedPhrases.map((p) => p.length));
  const end = text.slice(-longest);
  const lower = end.toLowerCase();
  let held = lower.length !== end.length ? end.length : 0;
  if (held === 0) {
    for (const p of rules.bannedPhrases.map((x) => x.toLowerCase())) {
      for (let k = Math.min(p.length - 1, lower.length); k > held; k--)
        if (lower.endsWith(p.slice(0, k))) {
          held = k;
          break;
        }
    }
  }
  return text.slice(0, text.length - held).trimEnd();
}

describe("KnownText", () => {
  it("gives out, piece by piece, what the answer so far fixes", () => {
    const piece = fc.oneof(
      fc.constantFrom(" ", "\n", "*", "**", "***", "As an", " AI", "as an ai", "I cannot", "İ", "ok", ".", "Hi there"),
      fc.string({ maxLength: 6 }),
    );
    const rules = fc.record({
      suffix: fc.boolean(),
      bannedPhrases: fc.constantFrom([], ["as an ai"], ["as an ai", "i cannot", "ai"]),
    });
    fc.assert(
      fc.property(rules, fc.array(piece, { maxLength: 25 }), (r, pieces) => {
        const known = new KnownText(r);
        let given = "";
        let expected = "";
        let raw = "";
        for (const p of pieces) {
          raw += p;
          given += known.add(p);
          const fixed = fixedBy(raw, r);
          if (fixed === null) break;
          // What was given out stays given: a shorter fix later (more held back) takes nothing back.
          if (fixed.length > expected.length && fixed.startsWith(expected)) expected = fixed;
          expect(given).toBe(expected);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("takes time in the pieces' length, not the answer's", () => {
    const known = new KnownText({ suffix: true, bannedPhrases: ["as an ai language model", "i cannot", "i'm sorry"] });
    const started = performance.now();
    let total = 0;
    for (let i = 0; i < 50_000; i++) total += known.add(`word${i % 97} **x** `).length;
    // Quadratic work would take minutes here; linear takes well under a second even on a busy machine.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(total).toBe(
      [...Array(50_000).keys()]
        .map((i) => `word${i % 97} x `)
        .join("")
        .trimEnd().length,
    );
  });
});
