// `autograms run`: one function of an agent, its value as JSON on stdout.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { autogramsInProcess, cliTestFolder, root } from "./support/run-cli.js";

interface Call {
  function: string;
  args: unknown[];
  result: unknown;
}

const calls = (
  JSON.parse(readFileSync(join(root, "samples/algorithms/conversation.json"), "utf8")) as { calls: Call[] }
).calls;

const folder = cliTestFolder("autograms-run-");

describe("autograms run", () => {
  it("computes fibonacci and merge sort from the agent source, with no model", async () => {
    const fib = await autogramsInProcess(["run", "samples/algorithms/agent.ts", "fibonacci", "10"]);
    expect(fib).toEqual({ code: 0, stdout: "55\n", stderr: "" });
    const sorted = await autogramsInProcess([
      "run",
      "samples/algorithms/agent.ts",
      "mergeSort",
      "[6, 5, -6, 1, 14, 2000, 3, 2, 100]",
    ]);
    expect(sorted).toEqual({ code: 0, stdout: "[-6,1,2,3,5,6,14,100,2000]\n", stderr: "" });
  });

  it("gives the recorded results of the algorithms sample from its graph file, a call of each function", async () => {
    // Each run starts the child process its code runs in (a second of CPU): one call per function
    // here; every recorded call is checked against the agent in test/samples/conversations.test.ts.
    const oneOfEach = calls.filter((c, i) => calls.findIndex((d) => d.function === c.function) === i);
    expect(oneOfEach.map((c) => c.function)).toEqual(["fibonacci", "fibonacciLoop", "mergeSort", "merge", "nextPrime"]);
    for (const c of oneOfEach) {
      const r = await autogramsInProcess([
        "run",
        "samples/algorithms/agent.graph.json",
        c.function,
        ...c.args.map((a) => JSON.stringify(a)),
      ]);
      expect({ call: c.function, args: c.args, code: r.code, value: JSON.parse(r.stdout) }).toEqual({
        call: c.function,
        args: c.args,
        code: 0,
        value: c.result,
      });
    }
  }, 120_000);

  it("shows what the function's code prints on stderr (its code runs in a child process), the value alone on stdout", async () => {
    const before = Date.now();
    const r = await autogramsInProcess(["run", "test/cli/fixtures/clock/agent.ts", "countdown", "2"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      "[info test/cli/fixtures/clock/agent.ts:20] 2...\n[info test/cli/fixtures/clock/agent.ts:20] 1...\n",
    );
    const at = JSON.parse(r.stdout) as number;
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(Date.now());
  });

  it("passes arguments that are not JSON as strings", async () => {
    // checkAnswer compares text: '3/4' is not JSON, and needs no model when the reply contains the answer.
    const r = await autogramsInProcess(["run", "samples/tutor/agent.ts", "checkAnswer", "it is 3 / 4", "3/4"]);
    expect(r).toEqual({ code: 0, stdout: '"correct"\n', stderr: "" });
    const quoted = await autogramsInProcess(["run", "samples/algorithms/agent.ts", "mergeSort", "[]"]);
    expect(quoted.stdout).toBe("[]\n");
  });

  it("says clearly that a function needs a model when it asks one, at the node's line", async () => {
    const r = await autogramsInProcess(["run", "samples/tutor/agent.ts", "checkAnswer", "one half", "3/4"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(
      /^samples\/tutor\/agent\.ts:59:12 - error model: node '[^']+': .*this function needs a model: pass --offline or set OPENAI_API_KEY\/OPENAI_BASE_URL\n/,
    );
    expect(r.stderr).toContain("> 59 |     return thought(");
    const offline = await autogramsInProcess([
      "run",
      "samples/tutor/agent.ts",
      "checkAnswer",
      "one half",
      "3/4",
      "--offline",
    ]);
    expect(offline).toMatchObject({ code: 0, stdout: '"wrong"\n' });
  });

  it("refuses an unknown function or too many arguments as usage errors (exit 2)", async () => {
    const unknown = await autogramsInProcess(["run", "samples/algorithms/agent.ts", "fib", "3"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      "autograms run: the agent has no function 'fib' (it has fibonacci, fibonacciLoop, mergeSort, merge, nextPrime)\n",
    );
    const many = await autogramsInProcess(["run", "samples/algorithms/agent.ts", "fibonacci", "3", "4"]);
    expect(many.code).toBe(2);
    expect(many.stderr).toBe("autograms run: 'fibonacci' takes 1 argument (n), got 2\n");
    expect((await autogramsInProcess(["run", "samples/algorithms/agent.ts"])).code).toBe(2);
  });

  it("refuses missing arguments that have no default (exit 2), and fills in defaults and optional ones", async () => {
    const agent = "test/cli/fixtures/defaults/agent.ts";
    const none = await autogramsInProcess(["run", agent, "greet"]);
    expect(none).toMatchObject({ code: 2, stdout: "" });
    expect(none.stderr).toBe(
      "autograms run: 'greet' takes 1 to 3 arguments (name, greeting?, punctuation?), got 0: missing 'name'\n",
    );
    expect(await autogramsInProcess(["run", agent, "greet", "Ada"])).toMatchObject({
      code: 0,
      stdout: '"Hello, Ada."\n',
    });
    expect(await autogramsInProcess(["run", agent, "greet", "Ada", "Hi", "!"])).toMatchObject({
      code: 0,
      stdout: '"Hi, Ada!"\n',
    });
    const fib = await autogramsInProcess(["run", "samples/algorithms/agent.ts", "fibonacci"]);
    expect(fib).toMatchObject({
      code: 2,
      stderr: "autograms run: 'fibonacci' takes 1 argument (n), got 0: missing 'n'\n",
    });
  });

  it("writes the call's trace: one event per line, naming the agent lines", async () => {
    const trace = join(folder(), "fib.jsonl");
    const r = await autogramsInProcess(["run", "samples/algorithms/agent.ts", "fibonacci", "3", "--trace", trace]);
    expect(r.stdout).toBe("2\n");
    const events = readFileSync(trace, "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, any>);
    // Depth first: fibonacci(3) calls fibonacci(2), which calls fibonacci(1) and fibonacci(0), then fibonacci(1).
    expect(events.filter((e) => e.kind === "call").map((e) => e.args)).toEqual([[2], [1], [0], [1]]);
    const returns = events.filter((e) => e.kind === "return");
    expect(returns.at(-1)).toMatchObject({ function: "fibonacci", value: 2, to: "" });
    // main's frame, then fibonacci(3), fibonacci(2) and fibonacci(1) or fibonacci(0) at the deepest.
    expect(events.map((e) => e.stack.length).reduce((a, b) => Math.max(a, b))).toBe(4);
    expect(events.every((e) => e.stack[0] === "main" && e.stack.slice(1).every((f: string) => f === "fibonacci"))).toBe(
      true,
    );
    for (const e of events) expect(e.at).toBe(`samples/algorithms/agent.ts:${e.loc.line}:${e.loc.column}`);
    expect(events.some((e) => e.kind === "code" && e.at === "samples/algorithms/agent.ts:21:5" && e.value === 2)).toBe(
      true,
    );
  });

  it("reports a file that does not exist", async () => {
    const r = await autogramsInProcess(["run", "nowhere.ts", "main"]);
    expect(r).toEqual({ code: 1, stdout: "", stderr: "autograms run: cannot read 'nowhere.ts': no such file\n" });
  });
});
