// `autograms chat` as a process on its own: a conversation resumed from --memory by a second
// process, signals (SIGTERM, Ctrl-C on a terminal), a reader of its output that goes away. The
// rest of its cases run in the test's process (chat.test.ts).
import { describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Memory } from "@autograms/runtime";
import { autograms, autogramsInProcess, bin, cliTestFolder, replies, root } from "./support/run-cli.js";

interface Turn {
  user: string;
  agent: string | null;
}

const tutor = JSON.parse(readFileSync(join(root, "samples/tutor/conversation.json"), "utf8")) as {
  turns: Turn[];
  finalGlobals: Record<string, unknown>;
};
// The agent speaks first (to an empty message); every later turn is one line of input.
const userLines = (turns: Turn[]) =>
  turns
    .slice(1)
    .map((t) => `${t.user}\n`)
    .join("");
// util-linux `script` runs a command on a pseudo-terminal, as a user's terminal would.
const spoken = (turns: Turn[]) => turns.map((t) => t.agent).filter((a): a is string => a !== null);
const hasScript = spawnSync("script", ["--version"]).status === 0;
const readMemory = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Memory;
const folder = cliTestFolder("autograms-chat-process-");

describe("autograms chat, a process of its own", () => {
  it("resumes the same conversation from --memory in a second process", async () => {
    const memory = join(folder(), "tutor.json");
    const first = await autograms(["chat", "samples/tutor/agent.ts", "--offline", "--memory", memory], {
      input: userLines(tutor.turns.slice(0, 4)),
    });
    expect(first.code).toBe(0);
    expect(replies(first.stdout)).toEqual(spoken(tutor.turns.slice(0, 4)));
    const saved = readMemory(memory);
    expect(saved).toMatchObject({ format: "autograms-memory", turn: 4, done: false });
    // It stopped inside doUnit, a global function, whose write to `correct` reaches main on return.
    expect(saved.stack.map((f) => f.function ?? "main")).toEqual(["main", "doUnit"]);
    expect(saved.stack[1]!.vars.correct).toBe(1);

    const second = await autograms(["chat", "samples/tutor/agent.ts", "--offline", "--memory", memory], {
      input: userLines(tutor.turns.slice(3)),
    });
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(`(resuming the conversation saved in ${memory}, after 4 turns)`);
    // The agent's last words are shown again, then the conversation goes on where it stopped.
    expect(replies(second.stdout)).toEqual(spoken(tutor.turns.slice(3)));
    const end = readMemory(memory);
    expect(end.done).toBe(true);
    expect(end.stack[0]!.vars).toMatchObject(tutor.finalGlobals);
    expect(existsSync(`${memory}.${process.pid}.tmp`)).toBe(false);

    const over = await autogramsInProcess(["chat", "samples/tutor/agent.ts", "--offline", "--memory", memory], {
      input: "hello\n",
    });
    expect(over.code).toBe(1);
    expect(over.stderr).toContain("that conversation has ended");
  });

  it("SIGTERM in a turn that computes a long while ends the process at once, the conversation as it was", async () => {
    const memory = join(folder(), "long-turn.json");
    const agent = join(root, "test/server/fixtures/hostile/agent.ts");
    const child = spawn(process.execPath, [bin, "chat", agent, "--offline", "--memory", memory], { cwd: root });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (out += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (out += c));
    const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
    try {
      await new Promise<void>((resolve) => {
        const check = () => out.includes("Agent: ") && (child.stdout.off("data", check), resolve());
        child.stdout.on("data", check);
      });
      // An endless loop: left alone, it computes until the runtime's step limit.
      child.stdin.write("loop\n");
      await new Promise((r) => setTimeout(r, 300));
      const signalled = performance.now();
      child.kill("SIGTERM");
      const code = await closed;
      expect(performance.now() - signalled, out).toBeLessThan(3000);
      expect(code).toBe(143);
      expect(readMemory(memory)).toMatchObject({ turn: 1, done: false });
    } finally {
      // A test that fails or times out before the signal leaves no process behind.
      child.kill("SIGKILL");
    }
  });

  it.skipIf(!hasScript)(
    "on a terminal, prompts for each line, and Ctrl-C leaves the turns so far saved (exit 130)",
    async () => {
      const memory = join(folder(), "terminal.json");
      const command = [process.execPath, bin, "chat", "samples/tutor/agent.ts", "--offline", "--memory", memory].join(
        " ",
      );
      const child = spawn("script", ["-qfec", command, "/dev/null"], { cwd: root });
      let screen = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (screen += chunk));
      const shown = () => screen.split("You: ").length - 1;
      // Waits for the screen to change until it shows the n-th prompt (20 s at most).
      const prompts = async (n: number) => {
        await new Promise<void>((resolve) => {
          const check = () => {
            if (shown() < n) return;
            clearTimeout(timer);
            child.stdout.off("data", check);
            resolve();
          };
          const timer = setTimeout(() => {
            child.stdout.off("data", check);
            resolve();
          }, 20_000);
          child.stdout.on("data", check);
          check();
        });
        expect(shown(), screen).toBe(n);
      };
      await prompts(1);
      child.stdin.write("Yes\r");
      await prompts(2);
      child.stdin.write("\u0003");
      const code = await new Promise((resolve) => child.on("close", resolve));
      child.stdin.destroy();
      expect(code).toBe(130);
      expect(screen).toContain(`Agent: ${tutor.turns[1]!.agent}`);
      expect(readMemory(memory)).toMatchObject({ turn: 2, done: false });
    },
  );

  it("ends quietly when the reader of its output goes away", async () => {
    const child = spawn(process.execPath, [bin, "chat", "samples/tutor/agent.ts", "--offline"], { cwd: root });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    // Like `| head -1`: read the first reply, then close the pipe while the agent still has lines to answer.
    child.stdout.once("data", () => {
      child.stdout.destroy();
      child.stdin.end(userLines(tutor.turns));
    });
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect(stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(code).toBe(0);
  });
});
