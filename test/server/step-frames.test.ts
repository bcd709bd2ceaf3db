// The UI message stream's frames of a run's steps are written around each step's JSON text, as
// the turn's player made it: they must be, byte for byte, the JSON of the chunks a client reads,
// and a step's text must not be read back into objects to write them. A protocol's
// frames are made a batch of events at a time and handed out in order.
import { describe, expect, it } from "vitest";
import type { NumberedRunEvent, RunEvent } from "@autograms/server";
import { stepFromText, stepWithText } from "../../server/src/runs/step-text.js";
import { UiMessageTranslator } from "@autograms/server";
import { framesOfBatches } from "../../server/src/routes/run-stream.js";
import { HARD_STEPS } from "../support/hard-steps.js";

const numbered = (events: RunEvent[]): NumberedRunEvent[] => events.map((event, i) => ({ seq: i + 1, event }));

const run: RunEvent[] = [
  { type: "run-start", threadId: "t", runId: "r", messageId: "m", user: "hi é", turn: 2 },
  { type: "text-delta", node: "main.say", delta: "Hel" },
  ...HARD_STEPS.map((event): RunEvent => ({ type: "step", event })),
  { type: "text-delta", node: "main.say", delta: "lo 👋 \u2028" },
  { type: "text-reset", node: "main.say" },
  { type: "text-delta", node: "main.say", delta: "Hello" },
  { type: "run-finish", turn: 2, reply: "Hello", done: false },
];

/** The same run with its steps as a worker sends them (their text) and as in-thread play makes them. */
const withTexts = (events: RunEvent[]): RunEvent[] =>
  events.map((e, i) =>
    e.type !== "step"
      ? e
      : i % 2 === 0
        ? stepFromText(JSON.stringify(e.event), e.event.kind)
        : stepWithText(e.event, JSON.stringify(e.event)),
  );

/** What a client reads of the run: each chunk's JSON, a step's data its event as JSON.stringify writes it. */
const expected = [
  { type: "start", messageId: "reply-2", messageMetadata: { threadId: "t", runId: "r", turn: 2 } },
  { type: "text-start", id: "text-1" },
  { type: "text-delta", id: "text-1", delta: "Hel" },
  // A step ends the text before it; a native tool call is kept in the message, every other step is transient.
  { type: "text-end", id: "text-1" },
  ...HARD_STEPS.map((event) =>
    event.kind === "tool_call"
      ? { type: "data-tool-call", data: event }
      : { type: "data-step", data: event, transient: true },
  ),
  { type: "text-start", id: "text-2" },
  { type: "text-delta", id: "text-2", delta: "lo 👋 \u2028" },
  { type: "text-end", id: "text-2" },
  { type: "data-text-reset", data: { node: "main.say" }, transient: true },
  { type: "text-start", id: "text-3" },
  { type: "text-delta", id: "text-3", delta: "Hello" },
  { type: "text-end", id: "text-3" },
  { type: "finish", finishReason: "stop", messageMetadata: { turn: 2, done: false } },
]
  .map((chunk) => JSON.stringify(chunk))
  .concat("[DONE]")
  .map((data, i) => ({ id: i + 1, data }));

describe("a run's UI message stream as text", () => {
  it("is, byte for byte, each chunk's JSON, from its start or resumed, whether its steps carry their texts or not", () => {
    expect(expected.filter((f) => f.data.startsWith('{"type":"data-tool-call"'))).toHaveLength(1);
    for (const events of [run, withTexts(run)]) {
      for (const after of [0, 3, expected.length - 1]) {
        const translator = new UiMessageTranslator();
        const frames = numbered(events).flatMap((e) => translator.translate(e, after));
        expect(frames).toEqual(expected.filter((f) => f.id > after));
      }
    }
  });

  it("does not read a step's text back into objects to write its frame", () => {
    const translator = new UiMessageTranslator();
    const steps = [stepFromText('{"kind":"code", not JSON', "code"), stepFromText("[not JSON", "tool_call")];
    const frames = numbered(steps).flatMap((e) => translator.translate(e));
    expect(frames.map((f) => f.data)).toEqual([
      '{"type":"data-step","data":{"kind":"code", not JSON,"transient":true}',
      '{"type":"data-tool-call","data":[not JSON}',
    ]);
  });
});

describe("a protocol's frames made a batch of events at a time", () => {
  it("are handed out in order, to calls made before the last one ended too, and end with the events", async () => {
    async function* batches() {
      yield numbered(run.slice(0, 3));
      await new Promise((r) => setTimeout(r, 5));
      yield [];
      yield numbered(run).slice(3);
    }
    const frames = framesOfBatches(batches(), (e) => [
      { id: `r:${e.seq}`, data: "a" },
      { id: `r:${e.seq}`, data: "b" },
    ]);
    // All asked for at once, as a reader that does not wait for each may.
    const got = await Promise.all(Array.from({ length: 2 * run.length + 2 }, () => frames.next()));
    expect(got.filter((g) => !g.done).map((g) => `${g.value!.id}${g.value!.data}`)).toEqual(
      run.flatMap((_, i) => [`r:${i + 1}a`, `r:${i + 1}b`]),
    );
    expect(got.slice(-2).every((g) => g.done)).toBe(true);
  });

  it("hand over those already made without a promise, in order with the calls", async () => {
    async function* batches() {
      yield numbered(run.slice(0, 2));
      yield numbered(run).slice(2);
    }
    const frames = framesOfBatches(batches(), (e) => [{ id: `r:${e.seq}`, data: "x" }]);
    // Nothing is made before a call asks for it.
    expect(frames.takeReady()).toBeUndefined();
    expect((await frames.next()).value!.id).toBe("r:1");
    expect(frames.takeReady()!.id).toBe("r:2");
    // The batch is used up: the next one comes with the next call.
    expect(frames.takeReady()).toBeUndefined();
    const rest: string[] = [];
    for (let got = await frames.next(); !got.done; got = await frames.next()) {
      rest.push(got.value.id);
      for (let ready = frames.takeReady(); ready; ready = frames.takeReady()) rest.push(ready.id);
    }
    expect(rest).toEqual(run.slice(2).map((_, i) => `r:${i + 3}`));
    expect(rest.length).toBeGreaterThan(1);
  });

  it("stop the events' source when the reader stops", async () => {
    let stopped = false;
    async function* batches() {
      try {
        for (;;) yield numbered(run);
      } finally {
        stopped = true;
      }
    }
    for await (const f of framesOfBatches(batches(), (e) => [{ id: `r:${e.seq}`, data: "x" }]))
      if (f.id === "r:2") break;
    expect(stopped).toBe(true);
  });
});
