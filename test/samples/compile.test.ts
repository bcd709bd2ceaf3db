// Every sample compiles cleanly, and its graph is the one committed beside it
// (samples/<name>/agent.graph.json, exactly what `autograms compile samples/<name>/agent.ts` writes).
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compile, graphToJson } from "@autograms/compiler";
import { validateGraph } from "@autograms/runtime";
import { SAMPLES, SAMPLES_DIR, agentPath } from "./samples.js";

describe.each(SAMPLES)("sample %s", (name) => {
  const source = readFileSync(agentPath(name), "utf8");
  const result = compile(source, { fileName: `samples/${name}/agent.ts` });

  it("compiles with no diagnostics", () => {
    expect(result.diagnostics).toEqual([]);
    expect(result.graph).not.toBeNull();
  });

  it("gives a valid graph equal to the committed agent.graph.json", async () => {
    const graph = result.graph!;
    expect(validateGraph(graph)).toMatchObject({ valid: true });
    await expect(graphToJson(graph)).toMatchFileSnapshot(join(SAMPLES_DIR, name, "agent.graph.json"));
  });
});
