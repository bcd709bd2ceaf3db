import { describe, expect, it } from "vitest";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { compile, formatDiagnostics, graphToJson } from "@autograms/compiler";
import { validateGraph } from "@autograms/runtime";

const fixtures = fileURLToPath(new URL("./fixtures", import.meta.url));

// Each fixture folder holds input.ts and either expected.graph.json (it compiles, to exactly this)
// or expected.errors.txt (it does not, with exactly these diagnostics). A fixture that compiles
// with warnings has them in expected.warnings.txt; one without that file compiles without a word.
// A new folder gets the files that fit what the compiler does now; review them before committing.
describe("compiler fixtures", () => {
  for (const name of readdirSync(fixtures).sort()) {
    const dir = join(fixtures, name);
    it(name, async () => {
      const source = readFileSync(join(dir, "input.ts"), "utf8");
      // Modules the agent imports custom actions from sit beside it in the fixture folder.
      const readFile = (path: string) =>
        existsSync(join(dir, path)) ? readFileSync(join(dir, path), "utf8") : undefined;
      const { graph, diagnostics, sourceMap } = compile(source, { fileName: "input.ts", readFile });
      const expectsErrors = existsSync(join(dir, "expected.errors.txt"));
      const expectsGraph = existsSync(join(dir, "expected.graph.json"));
      if (expectsErrors || (!expectsGraph && graph === null)) {
        expect(graph).toBeNull();
        expect(diagnostics.length).toBeGreaterThan(0);
        await expect(formatDiagnostics(diagnostics, source)).toMatchFileSnapshot(join(dir, "expected.errors.txt"));
        return;
      }
      expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      if (diagnostics.length || existsSync(join(dir, "expected.warnings.txt"))) {
        await expect(formatDiagnostics(diagnostics, source)).toMatchFileSnapshot(join(dir, "expected.warnings.txt"));
      }
      expect(graph).not.toBeNull();
      const validation = validateGraph(graph);
      expect(validation.errors).toEqual([]);
      expect(sourceMap?.version).toBe(3);
      await expect(graphToJson(graph!)).toMatchFileSnapshot(join(dir, "expected.graph.json"));
    });
  }
});
