/**
 * A turn's progress as a worker thread sends it (server/src/workers/protocol.ts): steps as pairs of
 * strings, pieces of the reply as objects, read back in the order they were added after crossing
 * threads (structured clone, as postMessage copies it).
 */
import { describe, expect, it } from "vitest";
import { addStepItem, addTextItem, readProgress, type ProgressItems } from "../../server/src/workers/protocol.js";

describe("a worker's progress", () => {
  it("gives back its steps and the reply's pieces in order, after a structured clone", () => {
    const items: ProgressItems = [];
    addStepItem(items, "user", '{"kind":"user","text":"hi"}');
    addTextItem(items, { kind: "delta", node: "talk", text: "Hel" });
    addTextItem(items, { kind: "reset", node: "talk" });
    addStepItem(items, "chat", '{"kind":"chat"}');
    // A step's text may look like anything, a kind too: only the position tells them apart.
    addStepItem(items, "code", "code");
    const read: string[] = [];
    readProgress(
      structuredClone(items),
      (json, kind) => read.push(`step ${kind} ${json}`),
      (chunk) => read.push(`text ${JSON.stringify(chunk)}`),
    );
    expect(read).toEqual([
      'step user {"kind":"user","text":"hi"}',
      'text {"kind":"delta","node":"talk","text":"Hel"}',
      'text {"kind":"reset","node":"talk"}',
      'step chat {"kind":"chat"}',
      "step code code",
    ]);
  });
});
