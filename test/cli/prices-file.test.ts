// `serve --prices FILE`: the table read and checked, its mistakes named by file and line:column.
import { afterAll, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { readPrices } from "../../cli/src/agent-loading/price-file.js";
import { tempFolder } from "../server/support/harness.js";

const folder = tempFolder("autograms-prices-");
afterAll(() => folder.remove());

function file(name: string, text: string): string {
  const path = join(folder.path, name);
  writeFileSync(path, text);
  return path;
}

const failure = (path: string) => {
  try {
    readPrices(path);
  } catch (err) {
    return err as Error & { exitCode?: number };
  }
  throw new Error("readPrices did not fail");
};

describe("--prices FILE", () => {
  it("reads a table of prices per million tokens", () => {
    const path = file("ok.json", '{ "gpt-4o-mini": { "input": 0.15, "output": 0.6 } }');
    expect(readPrices(path)).toEqual({ "gpt-4o-mini": { input: 0.15, output: 0.6 } });
  });

  it("names the line and column where the text stops being JSON", () => {
    const path = file("broken.json", '{\n  "a": { "input": 1, "output": 2 },\n}\n');
    expect(failure(path).message).toBe(`${path}:3:1: not JSON: a trailing comma before '}'`);
  });

  it("names the model whose price is wrong, where it is", () => {
    const path = file("wrong.json", '{\n  "a": { "input": 1, "output": 2 },\n  "b": { "input": "1" }\n}\n');
    expect(failure(path).message).toBe(
      `${path}:3:3: model 'b': a price is { "input": n, "output": n }, each a number of at least 0 per million tokens`,
    );
  });

  it("says when the file cannot be read", () => {
    expect(failure(join(folder.path, "none.json")).message).toBe(
      `--prices ${join(folder.path, "none.json")}: cannot read it (ENOENT)`,
    );
  });
});
