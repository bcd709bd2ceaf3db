// `autograms chat`, run as a user runs it: the built command, stdin piped one line per turn.
import { describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compile } from "@autograms/compiler";
import { replayConversation, type Graph, type Memory } from "@autograms/runtime";
import { autogramsInProcess, bin, cliTestFolder, replies, root } from "./support/run-cli.js";
import { startOpenAIServer, type ServerRequest } from "../support/openai-server.js";

interface Turn {
  user: string;
  agent: string | null;
  complete?: string[];
  choose?: string[];
}

const conversation = (sample: string) =>
  JSON.parse(readFileSync(join(root, "samples", sample, "conversation.json"), "utf8")) as {
    turns: Turn[];
    finalGlobals: Record<string, unknown>;
  };
const tutor = conversation("tutor");
// The agent speaks first (to an empty message); every later turn is one line of input.
const userLines = (turns: Turn[]) =>
  turns
    .slice(1)
    .map((t) => `${t.user}\n`)
    .join("");
const spoken = (turns: Turn[]) => turns.map((t) => t.agent).filter((a): a is string => a !== null);
// util-linux `script` runs a command on a pseudo-terminal, as a user's terminal would.
const hasScript = spawnSync("script", ["--version"]).status === 0;

const readMemory = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Memory;

const folder = cliTestFolder("autograms-chat-");

describe("autograms chat", () => {
  it("holds the tutor's whole conversation with the offline model over piped stdin", async () => {
    const r = await autogramsInProcess(["chat", "samples/tutor/agent.ts", "--offline"], {
      input: userLines(tutor.turns),
    });
    expect(r.code).toBe(0);
    expect(replies(r.stdout)).toEqual(spoken(tutor.turns));
    expect(r.stderr).toBe("(the conversation has ended)\n");
  });

  it("runs a compiled graph file the same way", async () => {
    const r = await autogramsInProcess(["chat", "samples/tutor/agent.graph.json", "--offline"], {
      input: userLines(tutor.turns.slice(0, 3)),
    });
    expect(r.code).toBe(0);
    expect(replies(r.stdout)).toEqual(spoken(tutor.turns.slice(0, 3)));
  });

  it("refuses a memory file that is not JSON, and leaves it as it was", async () => {
    const memory = join(folder(), "garbage.json");
    writeFileSync(memory, "{ not json");
    const r = await autogramsInProcess(["chat", "samples/tutor/agent.ts", "--offline", "--memory", memory], {
      input: "Yes\n",
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(
      /^autograms chat: cannot resume from '.*garbage\.json': it is not valid JSON \(.*\); the file is left as it is\n$/,
    );
    expect(readFileSync(memory, "utf8")).toBe("{ not json");
  });

  it("refuses tampered memory and memory of another agent, leaving both files untouched", async () => {
    const memory = join(folder(), "tampered.json");
    const made = await autogramsInProcess(["chat", "samples/tutor/agent.ts", "--offline", "--memory", memory], {
      input: "Yes\n",
    });
    expect(made.code).toBe(0);
    const tampered = readMemory(memory);
    tampered.stack[0]!.vars.correct = 99;
    const text = JSON.stringify(tampered);
    writeFileSync(memory, text);
    const r = await autogramsInProcess(["chat", "samples/tutor/agent.ts", "--offline", "--memory", memory], {
      input: "No questions.\n",
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error tampered_memory: /);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(memory, "utf8")).toBe(text);

    const other = await autogramsInProcess(["chat", "samples/recruiter/agent.ts", "--offline", "--memory", memory], {
      input: "hi\n",
    });
    expect(other.code).toBe(1);
    expect(other.stderr).toContain("it is a conversation with the agent 'FractionTutor', not 'Recruiter'");
    expect(readFileSync(memory, "utf8")).toBe(text);
  });

  it("shows a runtime error at its agent line with a code frame, and keeps the memory of the last good turn", async () => {
    const memory = join(folder(), "counter.json");
    const agent = "test/cli/fixtures/counter/agent.ts";
    const r = await autogramsInProcess(["chat", agent, "--offline", "--memory", memory], { input: "2\n3\nboom\n4\n" });
    expect(r.code).toBe(1);
    expect(replies(r.stdout)).toEqual(["Send me numbers, one at a time, then 'done'.", "Total: 2.", "Total: 5."]);
    expect(r.stderr).toMatch(
      new RegExp(
        `^${agent}:13:9 - error sandbox: node '[^']+': code \`total = missing.length\` failed: cannot read properties of null`,
      ),
    );
    expect(r.stderr).toContain("> 13 |         this.total = this.missing!.length;");
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readMemory(memory)).toMatchObject({ turn: 3, stack: [{ vars: { total: 5 } }] });

    const again = await autogramsInProcess(["chat", agent, "--offline", "--memory", memory], { input: "4\ndone\n" });
    expect(again.code).toBe(0);
    expect(replies(again.stdout)).toEqual(["Total: 5.", "Total: 9.", "Final total: 9. Bye!"]);
  });

  it("shows what the agent's code prints on stderr, apart from the replies, and records prints and the turn's time", async () => {
    const agent = "test/cli/fixtures/clock/agent.ts";
    const trace = join(folder(), "clock.jsonl");
    const r = await autogramsInProcess(["chat", agent, "--offline", "--trace", trace], { input: "hello\nwarn me\n" });
    expect(r.code).toBe(0);
    expect(replies(r.stdout)).toEqual([
      expect.stringMatching(/^Turn 1, 0 ms after the first\.$/),
      expect.stringMatching(/^Turn 2, \d+ ms/),
      expect.stringMatching(/^Turn 3, \d+ ms/),
    ]);
    expect(r.stdout).not.toContain("[log");
    // Marked with level and line, one per line of text, without the control sequences the code wrote; not coloured off a terminal.
    expect(r.stderr).toBe(
      [
        `[log ${agent}:12] turn 1 { said: '' }`,
        `[log ${agent}:12] turn 2 { said: 'hello' }`,
        `[log ${agent}:12] turn 3 { said: 'warn me' }`,
        `[warn ${agent}:13] two`,
        `[warn ${agent}:13] lines red`,
        "",
      ].join("\n"),
    );
    const events = readFileSync(trace, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { kind: string; text?: string; time?: number });
    expect(events.filter((e) => e.kind === "log").map((e) => e.text)).toEqual([
      "turn 1 { said: '' }",
      "turn 2 { said: 'hello' }",
      "turn 3 { said: 'warn me' }",
      "two\nlines \x1b[31mred\x1b[0m",
    ]);
    const times = events.filter((e) => e.kind === "time").map((e) => e.time!);
    expect(times).toHaveLength(3);
    expect(times[0]).toBeLessThanOrEqual(times[2]!);

    // The recording replays exactly under any clock: each turn gets its recorded time back.
    const { graph } = compile(readFileSync(join(root, agent), "utf8"), { fileName: agent });
    const replayed = [];
    for await (const turn of replayConversation(graph!, readFileSync(trace, "utf8"), { clock: () => 0 }))
      replayed.push(turn.reply);
    expect(replayed).toEqual(replies(r.stdout));
  });

  it("shows code frames for a graph file only while its source is the text it was compiled from", async () => {
    const agent = join(folder(), "counter.ts");
    copyFileSync(join(root, "test/cli/fixtures/counter/agent.ts"), agent);
    expect((await autogramsInProcess(["compile", "counter.ts"], { cwd: folder() })).code).toBe(0);
    const run = () =>
      autogramsInProcess(["chat", "counter.graph.json", "--offline"], { cwd: folder(), input: "boom\n" });
    const fresh = await run();
    expect(fresh.code).toBe(1);
    expect(fresh.stderr).toMatch(/^counter\.ts:13:9 - error sandbox: /);
    expect(fresh.stderr).toContain("> 13 |         this.total = this.missing!.length;");
    appendFileSync(agent, "// edited since\n");
    const edited = await run();
    expect(edited.code).toBe(1);
    expect(edited.stderr).toMatch(/^counter\.ts:13:9 - error sandbox: .*\n$/);
    expect(edited.stderr).not.toContain("> 13 |");
  });

  it("stops at /quit and at the end of input", async () => {
    const quit = await autogramsInProcess(["chat", "samples/tutor/agent.ts", "--offline"], {
      input: "Yes\n/quit\nNo questions.\n",
    });
    expect(quit.code).toBe(0);
    expect(replies(quit.stdout)).toEqual(spoken(tutor.turns.slice(0, 2)));
    const eof = await autogramsInProcess(["chat", "samples/tutor/agent.ts", "--offline"], { input: "" });
    expect(eof.code).toBe(0);
    expect(replies(eof.stdout)).toEqual(spoken(tutor.turns.slice(0, 1)));
  });

  it("says how to choose a model when there is none (exit 2)", async () => {
    const r = await autogramsInProcess(["chat", "samples/tutor/agent.ts"], { input: "Yes\n" });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("autograms chat: no model to talk to. Choose one:");
    expect(r.stderr).toContain("--offline");
    expect(r.stderr).toContain("OPENAI_API_KEY");
    expect(r.stderr).toContain("OPENAI_BASE_URL");
    const unnamed = await autogramsInProcess(["chat", "samples/tutor/agent.ts"], {
      env: { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" },
    });
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toBe("autograms chat: --model: name the model to use on http://127.0.0.1:9/v1\n");
  });

  it("prints compile errors tsc-style and exits 1 without starting", async () => {
    const r = await autogramsInProcess(["chat", "test/cli/fixtures/broken/agent.ts", "--offline"], { input: "hi\n" });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(
      "test/cli/fixtures/broken/agent.ts:7:10 - error unknown_method: the agent class has no method 'greet'\n",
    );
    expect(r.stderr).toContain('> 7 |     this.greet("Ada");');
    expect(r.stderr).toMatch(/autograms chat: 1 error in test\/cli\/fixtures\/broken\/agent\.ts\n$/);
  });

  it("writes a trace whose events parse and point at the agent's lines", async () => {
    const trace = join(folder(), "tutor.jsonl");
    const r = await autogramsInProcess(["chat", "samples/tutor/agent.ts", "--offline", "--trace", trace], {
      input: userLines(tutor.turns.slice(0, 4)),
    });
    expect(r.code).toBe(0);
    const events = readFileSync(trace, "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, any>);
    const graph = compile(readFileSync(join(root, "samples/tutor/agent.ts"), "utf8"), {
      fileName: "samples/tutor/agent.ts",
    }).graph as Graph;
    const byName = new Map(graph.nodes.map((n) => [n.name, n]));
    expect(events.length).toBeGreaterThan(20);
    for (const e of events) {
      const node = byName.get(e.node)!;
      expect(node, e.node).toBeDefined();
      expect(e.loc).toEqual(node.loc);
      expect(e.at).toBe(`samples/tutor/agent.ts:${node.loc!.line}:${node.loc!.column}`);
    }
    expect(events.filter((e) => e.kind === "user").map((e) => e.text)).toEqual(
      tutor.turns.slice(1, 4).map((t) => t.user),
    );
    expect(events.filter((e) => e.kind === "exact" && e.action === "chat_exact").map((e) => e.output)).toEqual(
      spoken(tutor.turns.slice(0, 4)),
    );
    const ready = events.find((e) => e.kind === "transition" && e.node === "ask_ready")!;
    expect(ready.decisions).toEqual([
      expect.objectContaining({ purpose: "transition", choices: ["yes", "no"], chosen: 0 }),
    ]);
    expect(ready.at).toBe("samples/tutor/agent.ts:17:5");
  });
});

describe("autograms chat --trace with --memory", () => {
  const graphOf = (file: string) => compile(readFileSync(join(root, file), "utf8"), { fileName: file }).graph as Graph;
  async function replayed(file: string, trace: string) {
    const turns: { user: string; reply: string | null }[] = [];
    for await (const t of replayConversation(graphOf(file), readFileSync(trace, "utf8"), { source: trace }))
      turns.push({ user: t.user, reply: t.reply });
    return turns;
  }

  it("goes on in the same trace when the conversation resumes, and the file replays the whole of it", async () => {
    const memory = join(folder(), "resumed.json");
    const trace = join(folder(), "resumed.jsonl");
    const args = ["chat", "samples/tutor/agent.ts", "--offline", "--memory", memory, "--trace", trace];
    const first = await autogramsInProcess(args, { input: userLines(tutor.turns.slice(0, 3)) });
    expect(first.code, first.stderr).toBe(0);
    const second = await autogramsInProcess(args, { input: userLines(tutor.turns.slice(2, 5)) });
    expect(second.code, second.stderr).toBe(0);
    const third = await autogramsInProcess(args, { input: userLines(tutor.turns.slice(4)) });
    expect(third.code, third.stderr).toBe(0);
    // A resumed conversation first repeats the agent's last words.
    const said = [...replies(first.stdout), ...replies(second.stdout).slice(1), ...replies(third.stdout).slice(1)];
    expect(said).toEqual(spoken(tutor.turns));

    const turns = await replayed("samples/tutor/agent.ts", trace);
    expect(turns.map((t) => t.user)).toEqual(tutor.turns.map((t) => t.user));
    expect(turns.map((t) => t.reply).filter((r) => r !== null)).toEqual(said);
  });

  it("cuts a failed turn off the trace when the conversation resumes and runs it again", async () => {
    const memory = join(folder(), "counted.json");
    const trace = join(folder(), "counted.jsonl");
    const agent = "test/cli/fixtures/counter/agent.ts";
    const failed = await autogramsInProcess(["chat", agent, "--offline", "--memory", memory, "--trace", trace], {
      input: "2\n3\nboom\n",
    });
    expect(failed.code).toBe(1);
    // The failing turn's steps are in the trace, up to the failure.
    const lines = readFileSync(trace, "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { kind: string; text?: string });
    expect(lines.filter((e) => e.kind === "user").map((e) => e.text)).toEqual(["2", "3", "boom"]);

    const again = await autogramsInProcess(["chat", agent, "--offline", "--memory", memory, "--trace", trace], {
      input: "4\ndone\n",
    });
    expect(again.code, again.stderr).toBe(0);
    const turns = await replayed(agent, trace);
    expect(turns.map((t) => t.user)).toEqual(["", "2", "3", "4", "done"]);
    expect(turns.map((t) => t.reply)).toEqual([
      "Send me numbers, one at a time, then 'done'.",
      "Total: 2.",
      "Total: 5.",
      "Total: 9.",
      "Final total: 9. Bye!",
    ]);
  });

  it("starts the trace anew with a new conversation, and refuses to append to a file that is no trace", async () => {
    const trace = join(folder(), "fresh.jsonl");
    writeFileSync(trace, '{"kind":"user","node":"x","text":"from before"}\n');
    const fresh = await autogramsInProcess(["chat", "samples/tutor/agent.ts", "--offline", "--trace", trace], {
      input: userLines(tutor.turns.slice(0, 2)),
    });
    expect(fresh.code).toBe(0);
    expect(readFileSync(trace, "utf8")).not.toContain("from before");
    expect((await replayed("samples/tutor/agent.ts", trace)).map((t) => t.reply)).toEqual(
      spoken(tutor.turns.slice(0, 2)),
    );

    const memory = join(folder(), "notes.json");
    expect(
      (await autogramsInProcess(["chat", "samples/tutor/agent.ts", "--offline", "--memory", memory], { input: "" }))
        .code,
    ).toBe(0);
    const notes = join(folder(), "notes.txt");
    writeFileSync(notes, "my notes\n");
    const r = await autogramsInProcess(
      ["chat", "samples/tutor/agent.ts", "--offline", "--memory", memory, "--trace", notes],
      { input: "Yes\n" },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`autograms chat: --trace ${notes}: the file holds no finished turn of a conversation`);
    expect(readFileSync(notes, "utf8")).toBe("my notes\n");
  });
});

describe("autograms chat with an OpenAI-compatible server", () => {
  const recruiter = conversation("recruiter");
  // Answers in the order the conversation needs them: texts for completions, and for multiple
  // choice the label of the scripted answer among those the question lists ("A. ...").
  const completes = recruiter.turns.flatMap((t) => t.complete ?? []);
  const chooses = recruiter.turns.flatMap((t) => t.choose ?? []);
  const isChoice = (req: ServerRequest) => req.body.logprobs === true || req.body.response_format !== undefined;
  const label = (req: ServerRequest, answer: string) => {
    const text = req.body.messages.map((m: { content: string }) => m.content).join("\n");
    const line = text.split("\n").find((l: string) => l.slice(3) === answer && /^[A-Z]\. /.test(l));
    if (!line) throw new Error(`the question lists no answer '${answer}':\n${text}`);
    return line[0]!;
  };

  it("talks through the real openai client, with the key from --api-key-env", async () => {
    let c = 0;
    let k = 0;
    const server = await startOpenAIServer({
      handler: (req) => (isChoice(req) ? { choice: label(req, chooses[k++]!) } : { text: completes[c++]! }),
    });
    try {
      const r = await autogramsInProcess(
        [
          "chat",
          "samples/recruiter/agent.ts",
          "--base-url",
          server.baseURL,
          "--model",
          "test-model",
          "--api-key-env",
          "RECRUITER_KEY",
        ],
        { input: userLines(recruiter.turns), env: { RECRUITER_KEY: "sk-test-123" } },
      );
      expect(r.stderr).toBe("(the conversation has ended)\n");
      expect(r.code).toBe(0);
      expect(replies(r.stdout)).toEqual(spoken(recruiter.turns));
      expect([c, k]).toEqual([completes.length, chooses.length]);
      expect(
        server.completions.every(
          (q) => q.body.model === "test-model" && q.headers.authorization === "Bearer sk-test-123",
        ),
      ).toBe(true);
    } finally {
      await server.close();
    }
  });

  it("names the node whose model call failed, at its line", async () => {
    const server = await startOpenAIServer({ handler: () => ({ status: 400, message: "model overloaded" }) });
    try {
      const r = await autogramsInProcess(
        ["chat", "samples/recruiter/agent.ts", "--base-url", server.baseURL, "--model", "test-model"],
        { input: "hi\n" },
      );
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/^samples\/recruiter\/agent\.ts:19:5 - error model: node 'greet': .*model overloaded/);
      expect(r.stderr).toContain("> 19 |     exec_node({\n     |     ^\n  20 |");
    } finally {
      await server.close();
    }
  });
});

describe("autograms chat streaming replies", () => {
  // One chat_suffix node: the model's first answer does not end with the text, so it is generated again.
  const quizGraph = () => {
    const path = join(folder(), "quiz.graph.json");
    writeFileSync(
      path,
      JSON.stringify({
        format: "autograms-graph",
        version: 1,
        agent: "Quiz",
        globals: {},
        functions: {},
        nodes: [{ name: "ask", action: "chat_suffix", instruction: "Ready for the quiz?", transitions: ["quit"] }],
      }),
    );
    return path;
  };
  const answers = () => [
    { text: "Nice weather.", chunks: ["Nice ", "weather."] },
    { text: "Lovely day. **Ready for the quiz?**", chunks: ["Lovely day. *", "*Ready for ", "the quiz?**"] },
  ];

  it("prints only the final reply over a pipe, and does not ask the model to stream", async () => {
    const server = await startOpenAIServer();
    try {
      server.enqueue(...answers());
      const r = await autogramsInProcess(["chat", quizGraph(), "--base-url", server.baseURL, "--model", "m"]);
      expect(r.stdout).toBe("Agent: Lovely day. Ready for the quiz?\n");
      expect(r.code).toBe(0);
      expect(server.completions.map((c) => c.body.stream)).toEqual([undefined, undefined]);
    } finally {
      await server.close();
    }
  });

  it("with --stream, prints the reply as it comes and redraws it in place when it is generated again", async () => {
    const server = await startOpenAIServer();
    try {
      server.enqueue(...answers());
      const r = await autogramsInProcess(
        ["chat", quizGraph(), "--base-url", server.baseURL, "--model", "m", "--stream"],
        {
          env: { COLUMNS: "80" },
        },
      );
      // The first answer's text, then back to the line's start and erased, then the new answer.
      expect(r.stdout).toBe("Agent: Nice weather.\r\x1b[JAgent: Lovely day. Ready for the quiz?\n");
      expect(r.stderr).toBe("(the conversation has ended)\n");
      expect(server.completions.map((c) => c.body.stream)).toEqual([true, true]);
    } finally {
      await server.close();
    }
  });

  it.skipIf(!hasScript)("streams by default on a terminal", async () => {
    const server = await startOpenAIServer();
    try {
      server.enqueue(...answers());
      const command = [process.execPath, bin, "chat", quizGraph(), "--base-url", server.baseURL, "--model", "m"].join(
        " ",
      );
      const child = spawn("script", ["-qfec", command, "/dev/null"], { cwd: root });
      let screen = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (screen += chunk));
      const code = await new Promise((resolve) => child.on("close", resolve));
      child.stdin.destroy();
      expect(code).toBe(0);
      expect(server.completions.map((c) => c.body.stream)).toEqual([true, true]);
      expect(screen).toContain("Agent: Nice weather.\r\x1b[JAgent: Lovely day. Ready for the quiz?");
    } finally {
      await server.close();
    }
  });
});
