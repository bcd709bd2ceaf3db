// A node's `setup` (its placeholders' values) survives graph -> CSV -> graph.
import { describe, expect, it } from "vitest";
import { exportSpreadsheet, importSpreadsheet } from "@autograms/compiler";
import { compileOk, fixtureSource } from "../compiler/support/compile.js";

/** Every field, code in the evaluator's language: the format that holds any graph. */
const AUTOGRAMS = { format: "autograms" } as const;

describe("setup in spreadsheets", () => {
  it("is a column of its own, exported only when a node has one, and read back", () => {
    const graph = compileOk(fixtureSource("placeholders"));
    const withSetup = graph.nodes.filter((n) => n.setup !== undefined);
    expect(withSetup.length).toBeGreaterThan(0);
    const csv = exportSpreadsheet(graph, AUTOGRAMS);
    expect(csv.split("\n")[0]).toContain("setup");
    const back = importSpreadsheet(csv, { agent: graph.agent });
    expect(back.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(back.graph!.nodes.filter((n) => n.setup !== undefined).map((n) => [n.name, n.setup])).toEqual(
      withSetup.map((n) => [n.name, n.setup]),
    );
    const plain = compileOk(fixtureSource("transitions"));
    expect(exportSpreadsheet(plain, AUTOGRAMS).split("\n")[0]).not.toContain("setup");
  });
});
