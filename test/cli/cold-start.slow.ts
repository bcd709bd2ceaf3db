// A cold start loads what the command runs and no more: the command line alone for --help, and for
// an action its own bundle, holding only the parts of the runtime and compiler it uses.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { bin, cliTestFolder, root } from "./support/run-cli.js";

const folder = cliTestFolder("autograms-cold-");
const dist = join(root, "cli/dist");

/** The CLI's own modules (cli/dist) a command loads, in order, and its exit code. */
function loadedBy(args: string[]): { code: number | null; modules: string[] } {
  const log = join(folder(), "modules.log");
  rmSync(log, { force: true });
  const r = spawnSync(process.execPath, ["--import", join(root, "test/cli/support/module-log.mjs"), bin, ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, AUTOGRAMS_MODULE_LOG: log },
  });
  const urls = readFileSync(log, "utf8").trim().split("\n");
  const modules = urls.map((u) => relative(dist, fileURLToPath(u))).filter((p) => !p.startsWith(".."));
  return { code: r.status, modules };
}

/** The source files esbuild put in a bundle (it heads each with a `// path` comment). */
function bundled(file: string): string[] {
  return [
    ...readFileSync(join(dist, file), "utf8").matchAll(
      /^\/\/ ((?:node_modules|graph|sandbox|runtime|compiler|cli)\/\S+)$/gm,
    ),
  ].map((m) => m[1]!);
}

describe("cold start", () => {
  it("--help loads the command line alone", () => {
    expect(loadedBy(["--help"])).toEqual({ code: 0, modules: ["autograms.mjs"] });
    expect(loadedBy(["simulate", "--help"])).toEqual({ code: 0, modules: ["autograms.mjs"] });
  });

  it("a command loads the command line and its own action", () => {
    expect(loadedBy(["compile", "samples/tutor/agent.ts", "-o", "-"])).toEqual({
      code: 0,
      modules: ["autograms.mjs", "autograms-compile.mjs"],
    });
    expect(loadedBy(["run", "samples/algorithms/agent.ts", "fibonacci", "10"])).toEqual({
      code: 0,
      modules: ["autograms.mjs", "autograms-run.mjs"],
    });
  });

  it("the command line holds no agent code, and compile neither the model clients nor the graph validator", () => {
    const cli = bundled("autograms.mjs");
    expect(cli.filter((f) => f.startsWith("cli/"))).toEqual(
      expect.arrayContaining(["cli/src/main.ts", "cli/src/commands/compile.ts"]),
    );
    expect(
      cli.filter(
        (f) =>
          !f.startsWith("cli/src/commands/") &&
          !f.startsWith("cli/src/agent-loading/model-options") &&
          // The providers --model knows, which its help lists.
          f !== "cli/src/agent-loading/ai-sdk-providers.ts" &&
          f !== "cli/src/main.ts" &&
          !f.startsWith("node_modules/commander/"),
      ),
    ).toEqual([]);

    const compile = bundled("autograms-compile.mjs");
    expect(compile).toContain("compiler/dist/compile.js");
    expect(
      compile.filter((f) =>
        /^node_modules\/(ajv|openai)\/|^graph\/dist\/schema-check\.generated|^runtime\/dist\/(model\/openai|model\/ai-sdk)/.test(
          f,
        ),
      ),
    ).toEqual([]);
    // The graph's validator (its JSON Schema compiled to code) is in the bundles that run agents.
    expect(bundled("autograms-chat.mjs")).toContain("graph/dist/schema-check.generated.js");
  });
});
