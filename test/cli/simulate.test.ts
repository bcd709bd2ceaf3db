// `autograms simulate`: batches of conversations with simulated users, their transcripts, traces
// and the lcov coverage of the agent's lines.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { compile } from "@autograms/compiler";
import type { Graph, GraphNode } from "@autograms/runtime";
import { autogramsInProcess, bin, cliTestFolder, root } from "./support/run-cli.js";

const readJsonLines = (path: string) =>
  readFileSync(path, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, any>);
const tutorGraph = compile(readFileSync(join(root, "samples/tutor/agent.ts"), "utf8"), {
  fileName: "samples/tutor/agent.ts",
}).graph as Graph;

interface Lcov {
  sf: string[];
  fn: Map<string, number>;
  fnda: Map<string, number>;
  da: Map<number, number>;
  totals: Record<string, number>;
  end: boolean;
}

function parseLcov(text: string): Lcov {
  const lcov: Lcov = { sf: [], fn: new Map(), fnda: new Map(), da: new Map(), totals: {}, end: false };
  for (const line of text.trimEnd().split("\n")) {
    const [key, value = ""] = line.split(/:(.*)/s) as [string, string?];
    const [a, b] = value.split(",") as [string, string];
    if (key === "SF") lcov.sf.push(value);
    else if (key === "FN") lcov.fn.set(b, Number(a));
    else if (key === "FNDA") lcov.fnda.set(b, Number(a));
    else if (key === "DA") lcov.da.set(Number(a), Number(b));
    else if (["FNF", "FNH", "LF", "LH"].includes(key)) lcov.totals[key] = Number(value);
    else if (key === "end_of_record") lcov.end = true;
    else if (key !== "TN") throw new Error(`unexpected lcov line: ${line}`);
  }
  return lcov;
}

// util-linux `script` runs a command on a pseudo-terminal, as a user's terminal would.
const hasScript = spawnSync("script", ["--version"]).status === 0;

const linesOf = (n: GraphNode) =>
  n.loc ? Array.from({ length: n.loc.endLine - n.loc.line + 1 }, (_, i) => n.loc!.line + i) : [];

const folder = cliTestFolder("autograms-simulate-");

describe("autograms simulate", () => {
  it("holds -n conversations, writes a transcript pair for each, a trace per conversation, lcov coverage and a summary", async () => {
    const out = join(folder(), "tutor");
    const r = await autogramsInProcess([
      "simulate",
      "samples/tutor/agent.ts",
      "-n",
      "3",
      "--offline",
      "--seed",
      "7",
      "--out",
      out,
      "--trace",
      join(out, "traces"),
      "--coverage",
      join(out, "coverage", "lcov.info"),
    ]);
    expect(r.code).toBe(0);

    const summary = r.stdout.split("\n");
    expect(summary[0]).toBe(
      "FractionTutor: 3 simulated conversations, seed 7 (repeat with --seed 7), at most 40 turns each",
    );
    expect(
      summary.filter((l) => /^\s+\d\s+\S+conversation-\d\.md\s+(quit|end_signal|max_turns)\s+\d+$/.test(l)),
    ).toHaveLength(3);
    // stderr is not a terminal here: no progress bar drawing.
    expect(r.stderr).not.toMatch(/[\r\u001b]/);

    expect(
      readdirSync(out)
        .filter((f) => f.startsWith("conversation-"))
        .sort(),
    ).toEqual([
      "conversation-1.json",
      "conversation-1.md",
      "conversation-2.json",
      "conversation-2.md",
      "conversation-3.json",
      "conversation-3.md",
    ]);
    for (const i of [1, 2, 3]) {
      const record = JSON.parse(readFileSync(join(out, `conversation-${i}.json`), "utf8"));
      expect(record).toMatchObject({
        agent: "FractionTutor",
        source: "samples/tutor/agent.ts",
        conversation: i,
        of: 3,
      });
      expect(record.transcript[0]).toEqual({
        role: "agent",
        text: "Hi! I'm your fractions tutor. We'll do two short units, each with one problem. Ready to start?",
      });
      expect(
        record.transcript
          .slice(1)
          .every((m: { role: string; text: string }, k: number) => m.role === (k % 2 === 0 ? "user" : "agent")),
      ).toBe(true);
      expect(record.memory.format).toBe("autograms-memory");
      const markdown = readFileSync(join(out, `conversation-${i}.md`), "utf8");
      expect(markdown).toContain(`# FractionTutor: simulated conversation ${i} of 3\n`);
      for (const m of record.transcript)
        expect(markdown).toContain(`**${m.role === "agent" ? "Agent" : "User"}:** ${m.text}\n`);
      // The trace of each conversation holds its replies.
      const events = readJsonLines(join(out, "traces", `conversation-${i}.jsonl`));
      const spoken = events.filter((e) => e.kind === "exact" && e.action === "chat_exact").map((e) => e.output);
      expect(spoken).toEqual(
        record.transcript.filter((m: { role: string }) => m.role === "agent").map((m: { text: string }) => m.text),
      );
    }

    // Coverage, checked against the graph and what the traces say ran.
    const lcov = parseLcov(readFileSync(join(out, "coverage", "lcov.info"), "utf8"));
    const events = [1, 2, 3].flatMap((i) => readJsonLines(join(out, "traces", `conversation-${i}.jsonl`)));
    const ran = (name: string) =>
      events.filter(
        (e) => e.node === name && ["generate", "exact", "code", "prompt", "pass", "call", "skip_call"].includes(e.kind),
      ).length;
    expect(lcov.sf).toEqual(["samples/tutor/agent.ts"]);
    expect(lcov.end).toBe(true);
    expect(Object.fromEntries(lcov.fn)).toEqual({ main: 14, doUnit: 35, checkAnswer: 55, encouragement: 63 });
    expect(lcov.fnda.get("main")).toBe(3);
    for (const [name, info] of Object.entries(tutorGraph.functions)) {
      expect(lcov.fnda.get(name), name).toBe(events.filter((e) => e.kind === "call" && e.function === name).length);
      expect(lcov.fnda.get(name), name).toBe(ran(info.entry));
    }
    expect([...lcov.da.keys()].sort((a, b) => a - b)).toEqual(
      [...new Set(tutorGraph.nodes.flatMap(linesOf))].sort((a, b) => a - b),
    );
    for (const node of tutorGraph.nodes) {
      // A node alone on its line(s) gives them its count.
      const lines = linesOf(node);
      const alone = lines.every((l) => tutorGraph.nodes.filter((n) => linesOf(n).includes(l)).length === 1);
      if (alone && !node.boolean_condition)
        for (const l of lines) expect(lcov.da.get(l), `${node.name} line ${l}`).toBe(ran(node.name));
    }
    expect(lcov.da.get(14)).toBe(3);
    expect(lcov.da.get(29)).toBe(ran("goodbye"));
    expect(lcov.totals).toEqual({
      FNF: 4,
      FNH: [...lcov.fnda.values()].filter((c) => c > 0).length,
      LF: lcov.da.size,
      LH: [...lcov.da.values()].filter((c) => c > 0).length,
    });

    // The per-function summary on stderr.
    expect(r.stderr).toContain(
      `coverage of samples/tutor/agent.ts by 3 conversations (lcov: ${join(out, "coverage", "lcov.info")}):\n`,
    );
    const mainNodes = tutorGraph.nodes.slice(
      0,
      tutorGraph.nodes.findIndex((n) => n.name === "doUnit"),
    );
    const visited = mainNodes.filter((n) => ran(n.name) > 0).length;
    expect(r.stderr).toMatch(new RegExp(`\\n  main +${visited}/${mainNodes.length} +\\d+% +\\d+/\\d+ +\\d+%\\n`));
    expect(r.stderr).toMatch(/\n {2}doUnit +\d+\/\d+ +\d+% +\d+\/\d+ +\d+%\n/);
    expect(r.stderr).toMatch(new RegExp(`\\n  all +\\d+/${tutorGraph.nodes.length} +\\d+% +\\d+/\\d+ +\\d+%\\n$`));
  });

  it("repeats a run with the same seed, and writes one trace file with conversation numbers", async () => {
    const a = join(folder(), "a");
    const b = join(folder(), "b");
    const args = ["simulate", "samples/prompts/agent.ts", "-n", "2", "--offline", "--seed", "42", "--max-turns", "12"];
    const ra = await autogramsInProcess([...args, "--out", a]);
    const rb = await autogramsInProcess([...args, "--out", b, "--trace", join(b, "all.jsonl")]);
    expect([ra.code, rb.code]).toEqual([0, 0]);
    for (const i of [1, 2]) {
      const x = JSON.parse(readFileSync(join(a, `conversation-${i}.json`), "utf8"));
      const y = JSON.parse(readFileSync(join(b, `conversation-${i}.json`), "utf8"));
      expect(y.transcript).toEqual(x.transcript);
      expect(y.seed).toBe(x.seed);
      expect(x.transcript.filter((m: { role: string }) => m.role === "agent").length).toBeLessThanOrEqual(12);
    }
    const events = readJsonLines(join(b, "all.jsonl"));
    expect(new Set(events.map((e) => e.conversation))).toEqual(new Set([1, 2]));
    expect(events.every((e) => e.at === null || e.at.startsWith("samples/prompts/agent.ts:"))).toBe(true);
  });

  it("records a conversation that fails, with its error and the transcript so far, and exits 1", async () => {
    const out = join(folder(), "counter");
    const r = await autogramsInProcess([
      "simulate",
      "test/cli/fixtures/counter/agent.ts",
      "-n",
      "2",
      "--offline",
      "--seed",
      "1",
      "--out",
      out,
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("conversation 1 failed:\ntest/cli/fixtures/counter/agent.ts:13:9 - error sandbox: ");
    expect(r.stderr).toContain("> 13 |         this.total = this.missing!.length;");
    expect(r.stdout).toContain("ended: error 2; 1.0 agent turns on average\n");
    const record = JSON.parse(readFileSync(join(out, "conversation-1.json"), "utf8"));
    expect(record.ended).toBe("error");
    expect(record.error.location).toBe("test/cli/fixtures/counter/agent.ts:13:9");
    expect(record.transcript).toEqual([
      { role: "agent", text: "Send me numbers, one at a time, then 'done'." },
      { role: "user", text: expect.stringContaining("boom") },
    ]);
    expect(readFileSync(join(out, "conversation-1.md"), "utf8")).toContain("_End: the run failed._");
  });

  it.skipIf(!hasScript)("draws a progress bar when stderr is a terminal", () => {
    const out = join(folder(), "tty");
    const command = [
      process.execPath,
      bin,
      "simulate",
      "samples/tutor/agent.ts",
      "-n",
      "2",
      "--offline",
      "--seed",
      "5",
      "--out",
      out,
    ].join(" ");
    const r = spawnSync("script", ["-qfec", command, "/dev/null"], { cwd: root, encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("simulating [");
    expect(r.stdout).toContain("2/2 conversations");
    expect(r.stdout).toContain("FractionTutor: 2 simulated conversations, seed 5");
  });

  it("refuses bad counts and a missing model as usage errors", async () => {
    expect((await autogramsInProcess(["simulate", "samples/tutor/agent.ts", "-n", "0", "--offline"])).code).toBe(2);
    expect((await autogramsInProcess(["simulate", "samples/tutor/agent.ts", "-n", "many", "--offline"])).code).toBe(2);
    const none = await autogramsInProcess([
      "simulate",
      "samples/tutor/agent.ts",
      "-n",
      "1",
      "--out",
      join(folder(), "none"),
    ]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("no model to talk to");
  });
});
