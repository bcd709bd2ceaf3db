// `autograms chat --memory`: one process per memory file, files that are not memory refused before
// anything is read or shown, and nothing of a model's or a memory's text reaches the terminal as
// control sequences. The failure modes are hangs and aborts, so every run in a process of its own
// has a deadline; what cannot hang or take the heap (a checksum, text shown) runs in this process.
import { describe, expect, it } from "vitest";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, ftruncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Memory } from "@autograms/runtime";
import { autogramsInProcess, bin, cliTestFolder, replies, root } from "./support/run-cli.js";

const folder = cliTestFolder("autograms-memory-file-");
const counter = "test/cli/fixtures/counter/agent.ts";
const echo = "test/cli/fixtures/echo/agent.ts";
const readMemory = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Memory;

/** The command with a deadline: a hang is a failure that says so, not a stuck test run. */
async function bounded(
  args: string[],
  input: string,
  seconds = 20,
): Promise<{ code: number | null; stdout: string; stderr: string; timedOut: boolean }> {
  const child = spawn(process.execPath, ["--max-old-space-size=256", bin, ...args], {
    cwd: root,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, seconds * 1000);
  const out = collect(child);
  child.stdin!.on("error", () => {});
  child.stdin!.end(input);
  const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
  clearTimeout(timer);
  return { code, ...out, timedOut };
}

function collect(child: ChildProcess): { stdout: string; stderr: string } {
  const out = { stdout: "", stderr: "" };
  child.stdout!.setEncoding("utf8").on("data", (c: string) => (out.stdout += c));
  child.stderr!.setEncoding("utf8").on("data", (c: string) => (out.stderr += c));
  return out;
}

/** A pid no process has: one that just ended. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(r.stdout);
}

describe("one process per memory file", () => {
  it("refuses a second process on the same file, naming the holder, and the first loses no turn", async () => {
    const memory = join(folder(), "shared.json");
    const first = spawn(process.execPath, [bin, "chat", counter, "--offline", "--memory", memory], {
      cwd: root,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const out = collect(first);
    const said = (text: string) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no '${text}' within 60 s: ${JSON.stringify(out)}`)), 60_000);
        const check = () => {
          if (!out.stdout.includes(text)) return;
          clearTimeout(timer);
          first.stdout!.off("data", check);
          resolve();
        };
        first.stdout!.on("data", check);
        check();
      });
    first.stdin!.write("2\n");
    await said("Total: 2.");

    const second = await bounded(["chat", counter, "--offline", "--memory", memory], "40\n");
    expect(second.timedOut).toBe(false);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`'${memory}' is in use by another autograms process (pid ${first.pid})`);
    expect(second.stdout).toBe("");

    first.stdin!.end("3\n");
    const code = await new Promise<number | null>((resolve) => first.on("close", resolve));
    expect(code, out.stderr).toBe(0);
    expect(replies(out.stdout)).toEqual(["Send me numbers, one at a time, then 'done'.", "Total: 2.", "Total: 5."]);
    expect(readMemory(memory)).toMatchObject({ turn: 3, stack: [{ vars: { total: 5 } }] });
    expect(existsSync(`${memory}.lock`)).toBe(false);

    // Once the holder is gone, the conversation goes on where it stopped.
    const third = await autogramsInProcess(["chat", counter, "--offline", "--memory", memory], { input: "4\n" });
    expect(third.code, third.stderr).toBe(0);
    expect(replies(third.stdout)).toEqual(["Total: 5.", "Total: 9."]);
    // Two processes starting the CLI and a third run: a minute on a busy machine.
  }, 90_000);

  it("takes over the lock and the temporaries of a killed process, and only those", async () => {
    const dir = join(folder(), "killed");
    mkdirSync(dir);
    const memory = join(dir, "m.json");
    const made = await autogramsInProcess(["chat", counter, "--offline", "--memory", memory], { input: "2\n" });
    expect(made.code, made.stderr).toBe(0);
    const dead = deadPid();
    writeFileSync(`${memory}.lock`, `${dead}\n`);
    writeFileSync(`${memory}.${dead}.tmp`, '{"half": ');
    // This test's own process is alive: its temporary is not stale.
    writeFileSync(`${memory}.${process.pid}.tmp`, "in use");
    writeFileSync(join(dir, `other.json.${dead}.tmp`), "not ours");

    const r = await bounded(["chat", counter, "--offline", "--memory", memory], "3\n");
    expect(r.code, r.stderr).toBe(0);
    expect(replies(r.stdout)).toEqual(["Total: 2.", "Total: 5."]);
    expect(existsSync(`${memory}.${dead}.tmp`)).toBe(false);
    expect(readFileSync(`${memory}.${process.pid}.tmp`, "utf8")).toBe("in use");
    expect(existsSync(join(dir, `other.json.${dead}.tmp`))).toBe(true);
    expect(existsSync(`${memory}.lock`)).toBe(false);
  });
});

describe("memory files that are not memory", () => {
  const refused = async (memory: string) => {
    const r = await bounded(["chat", counter, "--offline", "--memory", memory], "2\n");
    expect(r.timedOut).toBe(false);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).not.toMatch(/\n\s+at |bad_alloc|heap/i);
    return r.stderr;
  };

  it("refuses a device, a directory and a named pipe without reading them", async () => {
    const fifo = join(folder(), "pipe.json");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    // Three processes at once: each mostly waits for its start.
    const [device, directory, pipe] = await Promise.all([refused("/dev/zero"), refused(folder()), refused(fifo)]);
    expect(device).toBe(
      "autograms chat: cannot resume from '/dev/zero': it is not a regular file but a character device; the file is left as it is\n",
    );
    expect(directory).toContain("it is not a regular file but a directory");
    expect(pipe).toContain("it is not a regular file but a named pipe");
  });

  it("refuses a file over the size limit unread", async () => {
    const big = join(folder(), "big.json");
    const fd = openSync(big, "w");
    ftruncateSync(fd, 64 * 1024 * 1024 + 1); // sparse: costs no disk
    closeSync(fd);
    // In this process: read anyway, 64 MiB of zeros would be a slow failure, not a hang.
    const r = await autogramsInProcess(["chat", counter, "--offline", "--memory", big], { input: "2\n" });
    expect([r.code, r.stdout]).toEqual([1, ""]);
    expect(r.stderr).toContain("it is over 64 MiB, the limit for a memory file");
  });
});

describe("what reaches the terminal", () => {
  // (No carriage return: the line reader would take it for the end of the line.)
  const hostile = "\x1b]0;owned\x07\x1b[2J\x1b[31mred\x1b[0m\x0bback\x08\x9b31mc1\x00 end";

  it("checks the checksum before showing anything of a saved conversation", async () => {
    const memory = join(folder(), "forged.json");
    const made = await autogramsInProcess(["chat", echo, "--offline", "--memory", memory], { input: "hello\n" });
    expect(made.code, made.stderr).toBe(0);
    const text = readFileSync(memory, "utf8").replace(
      "You said: hello",
      `You said: ${JSON.stringify(hostile).slice(1, -1)}`,
    );
    writeFileSync(memory, text);
    const r = await autogramsInProcess(["chat", echo, "--offline", "--memory", memory], { input: "again\n" });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^autograms chat: error tampered_memory: /);
    expect(readFileSync(memory, "utf8")).toBe(text);
  });

  it("strips control sequences from replies, and from the last reply shown on resuming", async () => {
    const memory = join(folder(), "escapes.json");
    const r = await autogramsInProcess(["chat", echo, "--offline", "--memory", memory], { input: `${hostile}\n` });
    expect(r.code, r.stderr).toBe(0);
    const clean = "You said: redbackc1 end";
    expect(replies(r.stdout)).toEqual(["Say something.", clean]);
    expect(r.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    // The memory keeps what was said; only the terminal's copy is cleaned.
    expect(readFileSync(memory, "utf8")).toContain(JSON.stringify(`You said: ${hostile}`));
    const again = await autogramsInProcess(["chat", echo, "--offline", "--memory", memory]);
    expect(replies(again.stdout)).toEqual([clean]);
  });
});
