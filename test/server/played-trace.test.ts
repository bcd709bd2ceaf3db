// A played turn's steps are serialized once, as they happen: that text measures each step, bounds
// it for the stream and is what the commit stores. What the player hands back must be what the
// store would have made of the same events (packTurn), and a step's stand-ins as before.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { inflateRawSync } from "node:zlib";
import { compile } from "@autograms/compiler";
import {
  Agent,
  OfflineModel,
  storedEvent,
  storedTrace,
  type StoredTraceEvent,
  type TraceEvent,
} from "@autograms/runtime";
import { packTurn, TraceText } from "@autograms/store";
import { replyNode } from "../../server/src/runs/reply-text.js";
import { InProcessPlayer } from "@autograms/server";
import { boundedStep, MAX_VALUE_BYTES } from "../../server/src/workers/bounded-step.js";

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/pool/${name}`, import.meta.url));
const { graph } = compile(readFileSync(fixture("agent.ts"), "utf8"), { fileName: fixture("agent.ts") });
const agent = () => new Agent(graph!, { model: new OfflineModel(), tools: { whoami: () => 1 } });

describe("a played turn's trace", () => {
  it("is packed as packTurn packs the same events, in the same bytes, with the same reply node", async () => {
    const opened = await agent().reply("", undefined);
    // The same turn played twice from the same memory: once by the player, once with the trace kept.
    const events: TraceEvent[] = [];
    const expected = await agent().reply("many", opened.memory, { trace: (e) => events.push(e) });
    const steps: StoredTraceEvent[] = [];
    const played = await new InProcessPlayer(agent()).play({
      threadId: "t",
      text: "many",
      memory: opened.memory,
      signal: new AbortController().signal,
      onStep: (s) => steps.push(s.event),
      onText: () => {},
    });
    const trace = storedTrace(events);
    // Thousands of steps: past the texts TraceText joins at a time.
    expect(trace.length).toBeGreaterThan(3000);
    expect(Buffer.from(played.packed.trace).equals(packTurn(trace, expected.delta).trace)).toBe(true);
    expect(JSON.parse(inflateRawSync(played.packed.trace).toString("utf8"))).toEqual(trace);
    expect(played.replyNode).toBe(replyNode(trace));
    expect(played.replyNode).toMatch(/who$/);
    // Each step went out as it was, none of its values over the threshold.
    expect(steps).toEqual(trace);
  });

  it("packs an empty trace, and a delta or none, as packTurn does", () => {
    const empty = new TraceText();
    expect(Buffer.from(empty.pack(null).trace).equals(packTurn([], null).trace)).toBe(true);
    const one = new TraceText();
    const event = { kind: "code", node: "n", changes: [{ name: "s", after: 'é\u2028"' }] } as StoredTraceEvent;
    one.add(JSON.stringify(event));
    const delta = { turn: 2, set: [] } as never;
    const packed = one.pack(delta);
    const reference = packTurn([event], delta);
    expect(Buffer.from(packed.trace).equals(reference.trace)).toBe(true);
    expect(Buffer.from(packed.delta!).equals(reference.delta!)).toBe(true);
    expect(one.pack(null).delta).toBeNull();
  });

  it("packs traces written at once, and after others in the buffers they left, as packTurn does", () => {
    const events = (n: number, tag: string) =>
      Array.from(
        { length: n },
        (_, i) =>
          ({
            kind: "code",
            node: `${tag}${i}`,
            changes: [{ name: "x", after: "ü".repeat(i % 50) }],
          }) as StoredTraceEvent,
      );
    // A long trace (its buffer grows, then is kept) and a short one beside it, then short and long
    // traces in the buffers those left: nothing of an earlier trace is read with a later one.
    for (const [a, b] of [
      [events(3000, "long"), events(2, "short")],
      [events(1, "next"), events(2500, "again")],
      [[], events(1, "last")],
    ]) {
      const first = new TraceText();
      const second = new TraceText();
      for (let i = 0; i < Math.max(a!.length, b!.length); i++) {
        if (i < a!.length) first.add(JSON.stringify(a![i]));
        if (i < b!.length) second.add(JSON.stringify(b![i]));
      }
      expect(Buffer.from(first.pack(null).trace).equals(packTurn(a!, null).trace)).toBe(true);
      expect(Buffer.from(second.pack(null).trace).equals(packTurn(b!, null).trace)).toBe(true);
    }
  });
});

describe("a step's bounds", () => {
  const size = (...values: unknown[]) => values.reduce<number>((n, v) => n + (JSON.stringify(v)?.length ?? 0), 0);

  it("leaves a step whose values are under the threshold as it is and counts its values' JSON", () => {
    const steps: [StoredTraceEvent, number][] = [
      [
        { kind: "code", node: "n", stack: ["main"], loc: { line: 1 }, changes: [{ name: "i", before: 1, after: 2 }] },
        2,
      ],
      [
        { kind: "code", node: "n", changes: [{ name: "s", after: 'a "quoted"\nline\u0001' }], value: -0.5 },
        size('a "quoted"\nline\u0001', -0.5),
      ],
      [
        { kind: "code", node: "n", changes: [{ name: "s", before: "\ud83d\ude00 é", after: "\ud800" }] },
        size("\ud83d\ude00 é", "\ud800"),
      ],
      [
        { kind: "transition", node: "n", target: "main.x", to: "main.x", resolved: "name", decisions: [] },
        size("main.x", "main.x", "name", []),
      ],
      [
        { kind: "code", node: "n", value: Number.NaN, flag: false, other: true, none: null, gone: undefined },
        size(null, false, true, null),
      ],
      [
        { kind: "generate", node: "n", output: { text: "hi", list: [1, "2"] }, ms: 1.5 },
        size({ text: "hi", list: [1, "2"] }, 1.5),
      ],
    ] as [StoredTraceEvent, number][];
    for (const [event, bytes] of steps) {
      const measured = boundedStep(event);
      expect(measured.event).toBe(event);
      expect(measured.bytes).toBe(bytes);
    }
  });

  it("omits a large value, and only a value over the threshold", () => {
    const big = "x".repeat(MAX_VALUE_BYTES);
    const event = { kind: "code", node: "n", value: 1, changes: [{ name: "s", before: "", after: big }] };
    const measured = boundedStep(event);
    expect(measured.bytes).toBe(big.length + 2 + 2 + 1);
    expect(measured.event.changes).toEqual([
      { name: "s", before: "", after: { $omitted: { bytes: big.length + 2, sha256: expect.any(String) } } },
    ]);
    // Just over the threshold as a whole, every value under it: nothing to omit.
    const edge = { kind: "code", node: "n", changes: [{ name: "s", after: "y".repeat(MAX_VALUE_BYTES - 2) }] };
    expect(boundedStep(edge).event).toBe(edge);
  });
});

describe("a step as the store keeps it", () => {
  it("is the step itself when it has no prompt to leave out, else a copy without its prompts", () => {
    const code = { kind: "code", node: "n", stack: ["main"], changes: [], decisions: [] } as unknown as TraceEvent;
    expect(storedEvent(code)).toBe(code);
    const decided = {
      kind: "transition",
      node: "n",
      decisions: [{ prompt: "the whole conversation", answer: 1 }],
    } as unknown as TraceEvent;
    expect(storedEvent(decided)).toEqual({ kind: "transition", node: "n", decisions: [{ answer: 1 }] });
    expect(decided).toMatchObject({ decisions: [{ prompt: "the whole conversation" }] });
    const generated = {
      kind: "generate",
      node: "n",
      messages: [{ role: "user" }],
      output: "hi",
    } as unknown as TraceEvent;
    expect(storedEvent(generated)).toEqual({ kind: "generate", node: "n", output: "hi" });
    expect(storedTrace([code, generated])).toEqual([code, { kind: "generate", node: "n", output: "hi" }]);
  });
});
