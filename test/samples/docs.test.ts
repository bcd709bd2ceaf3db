// docs/samples.md shows a sample's graph as Mermaid; it must be the picture of the graph as it is.
// The README's table of the repository names every sample.
import { expect, it } from "vitest";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { toMermaid } from "@autograms/compiler";
import type { Graph } from "@autograms/runtime";
import { SAMPLES_DIR } from "./samples.js";

it("the Mermaid picture in docs/samples.md is the interjections sample's current graph", () => {
  const doc = readFileSync(join(SAMPLES_DIR, "..", "docs", "samples.md"), "utf8");
  const block = /```mermaid\n([\s\S]*?)```/.exec(doc)?.[1];
  const graph = JSON.parse(readFileSync(join(SAMPLES_DIR, "interjections", "agent.graph.json"), "utf8")) as Graph;
  // On a mismatch, paste the output of `npx autograms graph samples/interjections/agent.ts` into the doc.
  expect(block).toBe(toMermaid(graph));
});

it("the README's row of samples/ names every folder of it", () => {
  const readme = readFileSync(join(SAMPLES_DIR, "..", "README.md"), "utf8");
  const row = /^\| `samples\/` \|(.*)\|$/m.exec(readme)?.[1] ?? "";
  const folders = readdirSync(SAMPLES_DIR, { withFileTypes: true }).filter((e) => e.isDirectory());
  for (const { name } of folders)
    expect(row, `README.md's samples/ row misses ${name}`).toMatch(new RegExp(`\\b${name}\\b`));
});
