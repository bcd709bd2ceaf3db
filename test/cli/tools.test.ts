// Agents whose code calls functions imported from other modules: the CLI bundles those modules
// with esbuild (TypeScript, JSON data, package imports) and hands them to the runtime as tools.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { autogramsInProcess, cliTestFolder, replies, root } from "./support/run-cli.js";

const agent = "test/cli/fixtures/tools/agent.ts";

const folder = cliTestFolder("autograms-tools-");

describe("tools imported by an agent", () => {
  it("runs a function that calls a TypeScript tool reading a JSON data file", async () => {
    const r = await autogramsInProcess(["run", agent, "shelf", "moby-dick"]);
    expect(r).toEqual({ code: 0, stdout: '"Moby-Dick: shelf 7"\n', stderr: "" });
  });

  it("awaits async tools, and loads a tool module's package imports from where they are installed", async () => {
    // calculate() imports the runtime package for its sandbox; slowDouble() is async.
    const r = await autogramsInProcess(["run", agent, "compute", "6*7 + 1"]);
    expect(r).toEqual({ code: 0, stdout: "86\n", stderr: "" });
  });

  it("bundles a module that a tsconfig `paths` entry maps to TypeScript source", async () => {
    const r = await autogramsInProcess(["run", "test/cli/fixtures/tools-paths/agent.ts", "measure", '"(1 + 2) * 4"']);
    expect(r).toEqual({ code: 0, stdout: "[12,7]\n", stderr: "" });
  });

  it("gives tools to chat too", async () => {
    const r = await autogramsInProcess(["chat", agent, "--offline"], { input: "Middlemarch\n" });
    expect(r.code).toBe(0);
    expect(replies(r.stdout)).toEqual(["Which book?", "Middlemarch is by George Eliot."]);
  });

  it("finds the tool modules of a graph compiled elsewhere, through its source map", async () => {
    const graph = join(folder(), "librarian.graph.json");
    expect((await autogramsInProcess(["compile", agent, "-o", graph])).code).toBe(0);
    const r = await autogramsInProcess(["run", graph, "shelf", "Middlemarch", "--trace", "shelf.jsonl"], {
      cwd: folder(),
    });
    expect(r).toEqual({ code: 0, stdout: '"Middlemarch: shelf 12"\n', stderr: "" });
    // The trace names the agent source as found from here, where a viewer opened here looks for it.
    const at = JSON.parse(readFileSync(join(folder(), "shelf.jsonl"), "utf8").split("\n")[0]!).at as string;
    expect(at).toBe(`${relative(folder(), join(root, agent))}:13:3`);
  });

  it("reports a tool's failure at the agent line that called it", async () => {
    const r = await autogramsInProcess(["run", agent, "shelf", "Ulysses"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(`^${agent}:14:5 - error sandbox: node '[^']+': .*the tool 'lookup' failed: no book called 'Ulysses'`),
    );
    expect(r.stderr).toContain("> 14 |     const book = lookup(title);");
  });

  it("says which tool cannot be loaded: a module that does not exist, an export that is no function", async () => {
    const missing = await autogramsInProcess(["run", "test/cli/fixtures/missing-tool/agent.ts", "value"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      "autograms run: cannot load the agent's tools:\n" +
        "  tool 'nothing' (export 'nothing' of './nowhere.js', imported by test/cli/fixtures/missing-tool/agent.ts): Could not resolve \"./nowhere.js\"\n",
    );
    const value = await autogramsInProcess(["run", "test/cli/fixtures/not-a-function/agent.ts", "value"]);
    expect(value).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "autograms run: tool 'notAFunction': export 'notAFunction' of './values.js' is a number, not a function\n",
    });
  });
});
