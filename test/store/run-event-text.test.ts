// A run's steps are stored as the text they were made with (where the turn was played), not
// serialized again: the rows must be, byte for byte, what JSON.stringify makes of the same events,
// on SQLite and on Postgres (a batch of events is one row, a JSON array).
import { describe, expect, it } from "vitest";
import type { RunEvent } from "@autograms/server";
import type { Store } from "@autograms/store";
import { stepFromText, stepJson, stepKind, stepWithText } from "../../server/src/runs/step-text.js";
import { bothStores } from "./support/both-stores.js";
import { HARD_STEPS } from "../support/hard-steps.js";
import { runEventJson, withJson } from "../../server/src/runs/run-event-json.js";
import { batchText } from "../../store/src/sql/run-log.js";

/** A batch's row as the store writes it from events given with their texts. */
const runEventsJson = (events: unknown[]): string =>
  batchText(withJson(events.map((event, seq) => ({ seq, event: event as RunEvent }))));

const stores = bothStores("autograms-event-text-");

/** The rows as the database holds them. */
async function storedRows(store: Store, runId: string): Promise<string[]> {
  const db = (store as unknown as { db: { all(sql: string, params: unknown[]): Promise<Record<string, unknown>[]> } })
    .db;
  const rows = await db.all("SELECT seq, event FROM run_events WHERE run_id = ? ORDER BY seq", [runId]);
  return rows.map((r) => String(r.event));
}

describe("a step made from its text", () => {
  it("is, to its JSON, its clone, its keys and a comparison, the step it stands for", () => {
    for (const event of HARD_STEPS) {
      const json = JSON.stringify(event);
      const plain: RunEvent = { type: "step", event };
      // Read from its text, the event is what JSON.parse makes of it (-0 is 0 there).
      const parsed: RunEvent = { type: "step", event: JSON.parse(json) };
      for (const [step, as] of [
        [stepFromText(json, event.kind), parsed],
        [stepWithText(event, json), plain],
      ] as const) {
        expect(JSON.stringify(step)).toBe(JSON.stringify(plain));
        expect(runEventJson(step)).toBe(JSON.stringify(plain));
        expect(Object.keys(step)).toEqual(["type", "event"]);
        expect(step).toEqual(as);
        expect(structuredClone(step)).toEqual(as);
        expect({ ...step }).toEqual(as);
        expect(stepKind(step)).toBe(event.kind);
        expect(stepJson(step)).toBe(json);
      }
      // In a batch's array too, with what JSON.stringify writes of an element that has no JSON.
      const batch = [stepFromText(json, event.kind), plain, undefined, stepWithText(event, json)];
      expect(runEventsJson(batch)).toBe(JSON.stringify(batch));
      for (const few of [[], [undefined], [stepFromText(json, event.kind)], [plain, undefined]])
        expect(runEventsJson(few)).toBe(JSON.stringify(few));
      // A step without a text is serialized as it is.
      expect(runEventJson(plain)).toBe(JSON.stringify(plain));
      expect(stepJson(plain)).toBe(json);
    }
  });

  it("is stored and given to the streams without being parsed: only reading its event parses it", () => {
    const step = stepFromText('{"kind":"code", not JSON', "code");
    expect(runEventJson(step)).toBe('{"type":"step","event":{"kind":"code", not JSON}');
    expect(stepKind(step)).toBe("code");
    expect(() => step.event).toThrow(SyntaxError);
  });
});

for (const [name, open] of Object.entries(stores)) {
  describe(`a run's events on ${name}`, () => {
    it("are stored, byte for byte, as JSON.stringify writes them, and read back", async () => {
      const store = await open();
      try {
        const taken = await store.takeThread("t");
        const plain: RunEvent[] = [
          { type: "run-start", threadId: "t", runId: "r", messageId: null, user: "hi é", turn: 1 },
          ...HARD_STEPS.map((event): RunEvent => ({ type: "step", event })),
          { type: "text-delta", node: "main.say", delta: "Hello 👋 \u2028" },
          { type: "run-finish", turn: 1, reply: "Hello 👋 \u2028", done: false },
        ];
        // Steps as a worker sends them (text), as in-thread play makes them (object and text), and plain.
        const made = plain.map((event, i): RunEvent => {
          if (event.type !== "step") return event;
          const json = JSON.stringify(event.event);
          return i % 3 === 0
            ? stepFromText(json, event.event.kind)
            : i % 3 === 1
              ? stepWithText(event.event, json)
              : event;
        });
        const numbered = (events: RunEvent[], from: number) => events.map((event, i) => ({ seq: from + i, event }));
        // Two batches: the run's first with its record, then the rest, which ends it.
        expect(
          // Given with their texts, as a server gives them.
          await store.appendRunEvents("r", withJson(numbered(made.slice(0, 3), 1)), undefined, {
            id: "r",
            lease: taken.lease!,
            user: "hi",
          }),
        ).toBe(true);
        expect(await store.appendRunEvents("r", withJson(numbered(made.slice(3), 4)), "finished")).toBe(true);
        // A batch is a row: its events as one JSON array.
        expect(await storedRows(store, "r")).toEqual([
          JSON.stringify(plain.slice(0, 3)),
          JSON.stringify(plain.slice(3)),
        ]);
        expect(await store.runEvents("r")).toEqual(numbered(JSON.parse(JSON.stringify(plain)), 1));
      } finally {
        await store.close();
      }
    });
  });
}
