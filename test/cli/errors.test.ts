// What every command says when its input is wrong: one line naming the command, the file and the
// reason (or the compiler's diagnostics), the documented exit code, and never a stack trace.
import { beforeAll, describe, expect, it } from "vitest";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { autogramsInProcess, cliTestFolder, root, type CliResult } from "./support/run-cli.js";

const folder = cliTestFolder("autograms-errors-");
let dir: string;
const at = (name: string) => join(dir, name);

beforeAll(() => {
  dir = folder();
  const graph = JSON.parse(readFileSync(join(root, "samples/tutor/agent.graph.json"), "utf8")) as Record<
    string,
    unknown
  >;
  mkdirSync(at("a-folder.ts"));
  mkdirSync(at("a-folder.json"));
  writeFileSync(at("not-json.json"), "{ not json");
  writeFileSync(at("version-2.json"), JSON.stringify({ ...graph, version: 2 }));
  writeFileSync(at("memory.json"), JSON.stringify({ format: "autograms-memory", turn: 1 }));
  writeFileSync(at("list.json"), "[1, 2, 3]");
  copyFileSync(join(root, "test/cli/fixtures/broken/agent.ts"), at("broken.ts"));
});

const STACK_FRAME = /^\s+at .*(:\d+:\d+\)?|<anonymous>\)?)$/m;

function expectNoStackTrace(r: CliResult): void {
  expect(r.stderr).not.toMatch(STACK_FRAME);
  expect(r.stderr).not.toMatch(/^(\w*Error|Uncaught)\b/m);
}

// Each command that reads an agent or a graph, with what it needs besides the file.
const READERS: [string, (file: string) => string[]][] = [
  ["graph", (f) => ["graph", f]],
  ["export", (f) => ["export", f, "-o", "-"]],
  ["chat", (f) => ["chat", f, "--offline"]],
  ["simulate", (f) => ["simulate", f, "--offline", "-o", at("simulations")]],
  ["run", (f) => ["run", f, "main"]],
  ["debug", (f) => ["debug", f, "--offline"]],
];

describe.each(READERS)("autograms %s with a bad input", (command, args) => {
  const run = async (file: string) => {
    const r = await autogramsInProcess(args(file));
    expectNoStackTrace(r);
    expect(r.stdout).toBe("");
    return r;
  };
  const oneLine = (message: string) => `autograms ${command}: ${message}\n`;

  it("a missing file, a directory", async () => {
    expect(await run("nowhere.ts")).toMatchObject({
      code: 1,
      stderr: oneLine("cannot read 'nowhere.ts': no such file"),
    });
    expect(await run(at("a-folder.ts"))).toMatchObject({
      code: 1,
      stderr: oneLine(`cannot read '${at("a-folder.ts")}': it is a directory`),
    });
    expect(await run(at("a-folder.json"))).toMatchObject({
      code: 1,
      stderr: oneLine(`cannot read '${at("a-folder.json")}': it is a directory`),
    });
  });

  it("a graph file that is not JSON, not a graph, or of another format version", async () => {
    const notJson = await run(at("not-json.json"));
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toMatch(
      new RegExp(`^autograms ${command}: '.*not-json\\.json' is neither an agent \\(\\.ts\\) nor graph JSON: .+\\n$`),
    );
    expect(await run(at("version-2.json"))).toMatchObject({
      code: 1,
      stderr: oneLine(
        `'${at("version-2.json")}' is a graph of format version 2, and this autograms reads version 1: compile the agent again`,
      ),
    });
    expect(await run(at("memory.json"))).toMatchObject({
      code: 1,
      stderr: oneLine(
        `'${at("memory.json")}' is JSON, but not a graph: its "format" is "autograms-memory", not "autograms-graph"`,
      ),
    });
    expect(await run(at("list.json"))).toMatchObject({
      code: 1,
      stderr: oneLine(`'${at("list.json")}' is JSON, but not a graph (an object with "format": "autograms-graph")`),
    });
  });

  it("an agent with compile errors", async () => {
    const r = await run(at("broken.ts"));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/broken\.ts:7:10 - error unknown_method: the agent class has no method 'greet'\n/);
    expect(r.stderr).toContain('> 7 |     this.greet("Ada");');
    expect(r.stderr).toMatch(new RegExp(`\\nautograms ${command}: 1 error in .*broken\\.ts\\n$`));
  });
});

describe("autograms compile with a bad input", () => {
  it("a missing file, a directory, compile errors, and a graph instead of an agent", async () => {
    const missing = await autogramsInProcess(["compile", "nowhere.ts"]);
    expect(missing).toEqual({
      code: 1,
      stdout: "",
      stderr: "autograms compile: cannot read 'nowhere.ts': no such file\n",
    });
    const folderInstead = await autogramsInProcess(["compile", at("a-folder.ts")]);
    expect(folderInstead).toEqual({
      code: 1,
      stdout: "",
      stderr: `autograms compile: cannot read '${at("a-folder.ts")}': it is a directory\n`,
    });
    const broken = await autogramsInProcess(["compile", at("broken.ts")]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/\nautograms compile: 1 error in .*broken\.ts\n$/);
    const graph = await autogramsInProcess(["compile", "samples/tutor/agent.graph.json"]);
    expect(graph).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "autograms compile: 'samples/tutor/agent.graph.json' is JSON, not an agent: compile takes the agent's TypeScript file (.ts)\n",
    });
    for (const r of [missing, folderInstead, broken, graph]) expectNoStackTrace(r);
  });
});

describe("bad arguments and options", () => {
  it("run: an unknown function, or too many arguments, is a usage error that lists what there is", async () => {
    const unknown = await autogramsInProcess(["run", "samples/algorithms/agent.ts", "fib", "10"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^autograms run: the agent has no function 'fib' \(it has .*fibonacci.*\)\n$/);
    const many = await autogramsInProcess(["run", "samples/algorithms/agent.ts", "fibonacci", "10", "11"]);
    expect(many).toMatchObject({ code: 2, stderr: "autograms run: 'fibonacci' takes 1 argument (n), got 2\n" });
  });

  it.each(["0", "-1", "1.5", "abc", ""])("simulate -n %j is a usage error", async (n) => {
    const r = await autogramsInProcess([
      "simulate",
      "samples/tutor/agent.ts",
      "--offline",
      "-n",
      n,
      "-o",
      at("simulations"),
    ]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(
      new RegExp(
        `^error: option '-n, --conversations <N>' argument '${n.replace(".", "\\.")}' is invalid\\. expected a whole number of at least 1\\n`,
      ),
    );
    expectNoStackTrace(r);
  });

  it("debug: --conversation that is not a number, a replay file that is missing or a directory", async () => {
    expect(
      await autogramsInProcess([
        "debug",
        "samples/tutor/agent.ts",
        "--replay",
        "nowhere.jsonl",
        "--conversation",
        "two",
      ]),
    ).toMatchObject({ code: 2, stderr: "autograms debug: --conversation takes a number from 1, not 'two'\n" });
    expect(await autogramsInProcess(["debug", "samples/tutor/agent.ts", "--replay", "nowhere.jsonl"])).toMatchObject({
      code: 1,
      stderr: "autograms debug: cannot read the trace 'nowhere.jsonl': no such file\n",
    });
    expect(await autogramsInProcess(["debug", "samples/tutor/agent.ts", "--replay", dir])).toMatchObject({
      code: 1,
      stderr: `autograms debug: cannot read the trace '${dir}': it is a directory\n`,
    });
  });

  it("an output that cannot be written names it and why", async () => {
    const file = at("a-file");
    writeFileSync(file, "");
    expect(await autogramsInProcess(["graph", "samples/tutor/agent.ts", "-o", dir])).toMatchObject({
      code: 1,
      stdout: "",
      stderr: `autograms graph: cannot write '${dir}': it is a directory\n`,
    });
    expect(
      await autogramsInProcess(["compile", "samples/tutor/agent.ts", "-o", join(file, "agent.graph.json")]),
    ).toMatchObject({
      code: 1,
      stdout: "",
      stderr: `autograms compile: cannot write '${join(file, "agent.graph.json")}': its folder '${file}' cannot be made: it is a file, not a directory\n`,
    });
    expect(await autogramsInProcess(["chat", "samples/tutor/agent.ts", "--offline", "--trace", dir])).toMatchObject({
      code: 1,
      stdout: "",
      stderr: `autograms chat: cannot write the trace '${dir}': it is a directory\n`,
    });
    expect(await autogramsInProcess(["simulate", "samples/tutor/agent.ts", "--offline", "-o", file])).toMatchObject({
      code: 1,
      stdout: "",
      stderr: `autograms simulate: cannot write into the transcripts' folder '${file}': it is a file, not a directory\n`,
    });
    expect(
      await autogramsInProcess(["graph", "samples/tutor/agent.ts", "--format", "html", "--trace", "nowhere.jsonl"]),
    ).toMatchObject({
      code: 1,
      stdout: "",
      stderr: "autograms graph: cannot read the trace 'nowhere.jsonl': no such file\n",
    });
  });
});
