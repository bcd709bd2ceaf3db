// The deflated JSON columns: zlib's buffers and state are sized for each row (packed-json.ts),
// which must not change a byte of what is stored nor what reads it back.
import { deflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { packJson, packJsonBytes, unpackJson } from "../../store/src/sql/packed-json.js";

const words = "the agent said hello to the user and the user asked about the weather again".split(" ");
/** JSON like a turn's rows: repeated keys and words, `n` entries. */
const rows = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    node: `main.talk_${i % 5}`,
    loc: { line: i % 40, column: 5 },
    text: Array.from({ length: 1 + (i % 13) }, (_, w) => words[(i * 7 + w * 3) % words.length]).join(" "),
    changes: [{ name: "count", before: i, after: i + 1 }],
  }));

describe("packed JSON", () => {
  it("writes the bytes zlib's defaults write, at every size from empty to megabytes", () => {
    for (const n of [0, 1, 2, 5, 20, 100, 1_000, 30_000]) {
      const json = Buffer.from(JSON.stringify(rows(n)), "utf8");
      expect(packJsonBytes(json).equals(deflateRawSync(json)), `${n} rows, ${json.length} bytes`).toBe(true);
    }
  });

  it("reads back what it wrote, and what zlib's defaults wrote", () => {
    for (const n of [0, 3, 300, 30_000]) {
      const value = rows(n);
      expect(unpackJson(packJson(value))).toEqual(value);
      expect(unpackJson(deflateRawSync(Buffer.from(JSON.stringify(value))))).toEqual(value);
    }
    // Text that deflate cannot shrink: the output outgrows the buffer sized for it.
    const noise = Array.from({ length: 5_000 }, (_, i) => ((i * 2654435761) >>> 0).toString(36));
    expect(unpackJson(packJson(noise))).toEqual(noise);
  });
});
