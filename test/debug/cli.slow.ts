// `autograms debug` run as a user runs it: the built command, driven by piped stdin (in the test's
// process) and, where tmux or script is installed, on a real terminal (in a process of its own).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { autogramsInProcess, bin, cliTestFolder, root } from "../cli/support/run-cli.js";
import { sampleConversation } from "./support.js";

const folder = cliTestFolder("autograms-debug-");
let dir: string;
let trace: string;
const users = sampleConversation("tutor")
  .turns!.slice(1)
  .map((t) => t.user);

beforeAll(async () => {
  dir = folder();
  trace = join(dir, "tutor.jsonl");
  const r = await autogramsInProcess(["chat", "samples/tutor/agent.ts", "--offline", "--trace", trace], {
    input: users.join("\n") + "\n",
  });
  expect(r.code, r.stderr).toBe(0);
});

describe("autograms debug", () => {
  it("replays a recorded conversation, stopping at breakpoints given on the command line and typed at the prompt", async () => {
    const r = await autogramsInProcess(["debug", "samples/tutor/agent.ts", "--replay", trace, "-b", "44"], {
      input: [
        "continue",
        "print problem",
        "break checkAnswer",
        "continue",
        "stack",
        "out",
        "print verdict",
        "delete",
        "continue",
        "",
      ].join("\n"),
    });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Debugging FractionTutor (samples/tutor/agent.ts), ");
    expect(r.stdout).toContain("Breakpoint 1 at samples/tutor/agent.ts:44: pose\n");
    expect(r.stdout).toContain(
      [
        "Breakpoint 1: doUnit at samples/tutor/agent.ts:44 (node pose)",
        '> 44 |     chatExact(`Here\'s your problem: ${problem}`, { name: "pose" });',
        "(debug) print problem",
        'problem = "What is 1/4 + 2/4?"',
        "(debug) break checkAnswer",
        "Breakpoint 2 at checkAnswer, samples/tutor/agent.ts:55 (node checkAnswer)",
        "(debug) continue",
        "Agent: Here's your problem: What is 1/4 + 2/4?",
        "you (recorded): 3/4",
        "Breakpoint 2: checkAnswer at samples/tutor/agent.ts:55 (node checkAnswer)",
      ].join("\n"),
    );
    expect(r.stdout).toContain(
      [
        "(debug) stack",
        ">#0 checkAnswer at samples/tutor/agent.ts:55 (node checkAnswer)",
        "      @localFunction checkAnswer(reply: string, answer: string): string {",
        " #1 doUnit at samples/tutor/agent.ts:45 (node doUnit.call_checkAnswer_6459)",
        "      const verdict = this.checkAnswer(this._last_user_reply, answer);",
        " #2 main at samples/tutor/agent.ts:27 (node main.for_of_6ddc.call_doUnit_c1db)",
      ].join("\n"),
    );
    expect(r.stdout).toContain(
      '(debug) print verdict\nverdict = "correct"\n(debug) delete\nDeleted 2 breakpoints\n(debug) continue\n',
    );
    expect(r.stdout).toMatch(
      /Agent: That's both units done: you answered 1 of 2 problems right\. Well done, and see you next time!\nThe conversation has ended \(quit\)\.\n$/,
    );
  });

  it("debugs a live conversation with the offline model, the user's messages read from stdin", async () => {
    const r = await autogramsInProcess(["debug", "samples/tutor/agent.graph.json", "--offline"], {
      input: ["break 46", "c", "yes", "no questions", "3/6", "print verdict", "next", "c", ...users.slice(4), ""].join(
        "\n",
      ),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("you> 3/6\nBreakpoint 1: doUnit at samples/tutor/agent.ts:49 (node doUnit.if_bcdb.b)\n");
    expect(r.stdout).toContain(
      '(debug) print verdict\nverdict = "wrong"\n(debug) next\nStepped: doUnit at samples/tutor/agent.ts:50 (node doUnit.if_bcdb.b.call_encouragement_5ae2)\n',
    );
    expect(r.stdout).toContain(
      "Agent: Not quite: the answer is 3/4. Fractions take practice, and you're getting there.\n",
    );
  });

  it("reports what it cannot start with, and a runtime error with a code frame", async () => {
    const missing = await autogramsInProcess(["debug", "nowhere.ts", "--offline"]);
    expect([missing.code, missing.stderr]).toEqual([1, "autograms debug: cannot read 'nowhere.ts': no such file\n"]);
    const both = await autogramsInProcess(["debug", "samples/tutor/agent.ts", "--replay", trace, "--offline"]);
    expect([both.code, both.stderr]).toEqual([
      2,
      "autograms debug: --replay answers from the recording: it takes no model flags\n",
    ]);
    const noModel = await autogramsInProcess(["debug", "samples/tutor/agent.ts"]);
    expect(noModel.code).toBe(2);
    expect(noModel.stderr).toContain("no model to talk to. Choose one:");
    const bad = join(dir, "bad.jsonl");
    writeFileSync(bad, "{not json\n");
    const broken = await autogramsInProcess(["debug", "samples/tutor/agent.ts", "--replay", bad]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/^autograms debug: .*bad\.jsonl:1: not a JSON line\n$/);
    // A recording of another agent diverges at its first model call, located in the agent source.
    const other = join(dir, "other.jsonl");
    const recruiter = await autogramsInProcess(["chat", "samples/recruiter/agent.ts", "--offline", "--trace", other], {
      input: "yes\n",
    });
    expect(recruiter.code).toBe(0);
    const diverged = await autogramsInProcess(["debug", "samples/tutor/agent.ts", "--replay", other], { input: "c\n" });
    expect(diverged.code).toBe(1);
    expect(diverged.stderr).toMatch(/^samples\/tutor\/agent\.ts:\d+:\d+ - error /);
    expect(diverged.stderr).toContain("replay diverged");
    expect(diverged.stderr).toMatch(/\n> \d+ \| /);
  });
});

const tmux = spawnSync("tmux", ["-V"]).status === 0;

describe.skipIf(!tmux)("autograms debug on a terminal (tmux)", () => {
  const session = `autograms-debug-${process.pid}`;
  const screen = () => execFileSync("tmux", ["capture-pane", "-p", "-t", session], { encoding: "utf8" });
  async function waitFor(text: string, after = 0): Promise<string> {
    for (let i = 0; i < 200; i++) {
      const s = screen();
      if (s.indexOf(text, after) >= 0) return s;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the screen never showed ${JSON.stringify(text)}:\n${screen()}`);
  }
  const type = (line: string) => execFileSync("tmux", ["send-keys", "-t", session, line, "Enter"]);
  afterAll(() => spawnSync("tmux", ["kill-session", "-t", session]));

  it("shows its prompts and takes commands and messages typed at them", async () => {
    execFileSync("tmux", [
      "new-session",
      "-d",
      "-s",
      session,
      "-x",
      "200",
      "-y",
      "60",
      "-c",
      root,
      `${process.execPath} ${bin} debug samples/tutor/agent.ts --offline; sleep 30`,
    ]);
    // (tmux leaves out the spaces that end a line: prompts show without theirs)
    await waitFor("(debug)");
    type("break pose");
    await waitFor("Breakpoint 1 at samples/tutor/agent.ts:44: pose");
    type("continue");
    await waitFor("you>");
    type("yes");
    await waitFor("Any questions before we try one?\nyou>");
    type("no questions");
    await waitFor("Breakpoint 1: doUnit at samples/tutor/agent.ts:44 (node pose)");
    type("print topic");
    // The answer and the next prompt are written one after the other: wait for both, not the first.
    const s = await waitFor('topic = "adding fractions"\n(debug)');
    expect(s).toContain('(debug) print topic\ntopic = "adding fractions"\n(debug)');
    type("quit");
    await waitFor("(debug) quit");
  });
});

// util-linux `script` runs a command on a pseudo-terminal, as a user's terminal would, and exits
// with the command's code.
const hasScript = spawnSync("script", ["--version"]).status === 0;

describe.skipIf(!hasScript)("Ctrl-C in autograms debug on a terminal", () => {
  const agent = "test/debug/fixtures/sleeper/agent.ts";

  function start(args: string[]) {
    const command = [process.execPath, bin, "debug", ...args].join(" ");
    const child = spawn("script", ["-qfec", command, "/dev/null"], { cwd: root });
    let screen = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (screen += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    return {
      exited,
      screen: () => screen,
      /** Waits until the screen shows `text` for the `n`th time. */
      async waitFor(text: string, n = 1): Promise<void> {
        for (let i = 0; i < 400 && screen.split(text).length - 1 < n; i++) await new Promise((r) => setTimeout(r, 50));
        if (screen.split(text).length - 1 < n)
          throw new Error(`the screen never showed ${JSON.stringify(text)} ${n} times:\n${screen}`);
      },
      type: (keys: string) => child.stdin.write(keys),
      async end(): Promise<number | null> {
        const code = await exited;
        child.stdin.destroy();
        return code;
      },
    };
  }

  it("ends the session at the (debug) prompt, exit 130", async () => {
    const t = start(["samples/tutor/agent.ts", "--offline"]);
    await t.waitFor("(debug) ");
    t.type("\u0003");
    expect(await t.end()).toBe(130);
    expect(t.screen()).not.toMatch(/\n\s+at /);
  });

  it("ends the session at the you> prompt, exit 130", async () => {
    const t = start(["samples/tutor/agent.ts", "--offline"]);
    await t.waitFor("(debug) ");
    t.type("continue\r");
    await t.waitFor("you> ");
    t.type("\u0003");
    expect(await t.end()).toBe(130);
  });

  it("pauses a busy run before its next node, then ends at the prompt", async () => {
    // Relative: at the you> prompt a line that starts with "/" is a command.
    const wake = relative(root, join(dir, "wake-up"));
    const t = start([agent, "--offline"]);
    await t.waitFor("(debug) ");
    t.type("continue\r");
    await t.waitFor("you> ");
    t.type(`${wake}\r`);
    await t.waitFor("(asleep)");
    t.type("\u0003");
    await t.waitFor("(pausing before the next node; Ctrl-C again ends the session)");
    writeFileSync(join(root, wake), "");
    await t.waitFor("Paused: main at test/debug/fixtures/sleeper/agent.ts:9 (node awake)");
    await t.waitFor("(debug) ", 2);
    // Still a debugger: commands work at the prompt the pause gave.
    t.type("print waited\r");
    await t.waitFor(`waited = ${JSON.stringify(wake)}`);
    t.type("\u0003");
    expect(await t.end()).toBe(130);
    expect(t.screen()).not.toContain("Agent: Awake after");
  });

  it("ends a run that does not reach its next node at a second Ctrl-C", async () => {
    const t = start([agent, "--offline"]);
    await t.waitFor("(debug) ");
    t.type("continue\r");
    await t.waitFor("you> ");
    t.type(`${relative(root, join(dir, "never"))}\r`);
    await t.waitFor("(asleep)");
    t.type("\u0003");
    await t.waitFor("(pausing before the next node");
    t.type("\u0003");
    expect(await t.end()).toBe(130);
  });
});
