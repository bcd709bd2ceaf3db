// `autograms eval --compare git:REV`: the agent as it was at a git revision, with the module it
// imports by relative path as it was then, run on the same cases; clear errors without git's help.
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { autogramsInProcess, cliTestFolder } from "../cli/support/run-cli.js";

const folder = cliTestFolder("autograms-eval-git-");

const AGENT = `import { Autogram, chatExact } from "@autograms/runtime";
import { greeting } from "./lib/words.js";

export default class Greeter extends Autogram {
  main() {
    const text = greeting("friend");
    if (text.startsWith("Hello")) {
      chatExact("Warm welcome.", { name: "warm" });
    } else {
      chatExact("Cold welcome.", { name: "cold" });
    }
    chatExact("Bye.", { name: "bye" });
  }
}
`;

const words = (word: string) => `export function greeting(name: string): string {\n  return "${word} " + name;\n}\n`;

const CASES = '{"name": "greets warmly", "turns": [{"expect": {"node": "warm"}}]}\n';

/** A repository whose last commit has the agent greeting "Hello", its working tree "Goodbye". */
function repository(name: string): string {
  const dir = join(folder(), name);
  mkdirSync(join(dir, "agents", "lib"), { recursive: true });
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: dir });
  git("init", "-q");
  writeFileSync(join(dir, "agents", "agent.ts"), AGENT);
  writeFileSync(join(dir, "agents", "lib", "words.ts"), words("Hello"));
  writeFileSync(join(dir, "cases.jsonl"), CASES);
  git("add", ".");
  git("commit", "-q", "-m", "greeter");
  writeFileSync(join(dir, "agents", "lib", "words.ts"), words("Goodbye"));
  return dir;
}

const leftovers = () =>
  readdirSync(tmpdir())
    .filter((f) => f.startsWith("autograms-git-"))
    .sort();

describe("autograms eval --compare git:REV", () => {
  it("runs the cases on the agent as committed, its imported module included, and says what changed", async () => {
    const cwd = repository("compared");
    const store = `sqlite:${join(folder(), "git.db")}`;
    const before = leftovers();
    const r = await autogramsInProcess(
      ["eval", "agents/agent.ts", "cases.jsonl", "--offline", "--store", store, "--compare", "git:HEAD"],
      { cwd },
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/greets warmly\s+1\s+node warm\s+FAIL\s+agent\.ts:10\s+replied at 'cold'/);
    expect(r.stdout.slice(r.stdout.indexOf("\ncompared with"))).toBe(
      [
        "",
        "compared with git:HEAD:",
        "  greets warmly (line 1): passes there, fails here",
        // The lines of the revision's agent and this one's are the same: only the module changed.
        "    turn 1 parts after main.code_dc11 (there agent.ts:6, here agent.ts:6): there main.if_5320.a (agent.ts:7), here main.if_5320.b (agent.ts:9)",
        "1 cases: 1 changed result, 1 turn went another way",
        "",
      ].join("\n"),
    );
    // The copy of the revision is gone once the command ends.
    expect(leftovers()).toEqual(before);
    const list = await autogramsInProcess(["eval", "list", "--store", store], { cwd });
    const commit = execFileSync("git", ["rev-parse", "HEAD"], { cwd }).toString().slice(0, 8);
    expect(list.stdout).toContain(`git:HEAD:agents/agent.ts (${commit})`);

    // REV:PATH names the file at the revision, the path as from the current folder.
    const same = await autogramsInProcess(
      ["eval", "agents/agent.ts", "cases.jsonl", "--offline", "--no-store", "--compare", "HEAD:agents/agent.ts"],
      { cwd },
    );
    expect(same.stdout).toContain(
      "\ncompared with HEAD:agents/agent.ts:\n  greets warmly (line 1): passes there, fails here\n",
    );
  });

  it("a revision, a file or a repository that is not there: a clear error, before any case runs", async () => {
    const cwd = repository("errors");
    const run = (compare: string, dir = cwd) =>
      autogramsInProcess(["eval", "agents/agent.ts", "cases.jsonl", "--offline", "--no-store", "--compare", compare], {
        cwd: dir,
      });
    const rev = await run("git:nope");
    expect(rev.code).toBe(1);
    expect(rev.stdout).toBe("");
    expect(rev.stderr).toBe(`autograms eval: --compare: the git repository at ${cwd} has no revision 'nope'\n`);
    const file = await run("HEAD:agents/other.ts");
    expect(file.stderr).toMatch(
      new RegExp(
        `^autograms eval: --compare: agents/other\\.ts is not in revision 'HEAD' \\([0-9a-f]{8}\\) of the git repository at ${cwd}\\n$`,
      ),
    );
    const outside = join(folder(), "outside");
    mkdirSync(join(outside, "agents", "lib"), { recursive: true });
    writeFileSync(join(outside, "agents", "agent.ts"), AGENT);
    writeFileSync(join(outside, "agents", "lib", "words.ts"), words("Hello"));
    writeFileSync(join(outside, "cases.jsonl"), CASES);
    const none = await autogramsInProcess(
      ["eval", "agents/agent.ts", "cases.jsonl", "--offline", "--no-store", "--compare", "git:HEAD"],
      { cwd: outside, env: { GIT_CEILING_DIRECTORIES: folder() } },
    );
    expect(none.stderr).toBe("autograms eval: --compare HEAD: the current folder is not in a git repository\n");
    expect(existsSync(join(outside, ".autograms"))).toBe(false);
    // No git to ask: said so, not a failure to spawn.
    const noGit = await autogramsInProcess(
      ["eval", "agents/agent.ts", "cases.jsonl", "--offline", "--no-store", "--compare", "git:HEAD"],
      { cwd, env: { PATH: outside } },
    );
    expect(noGit.stderr).toBe(
      "autograms eval: --compare with a git revision needs git, which is not installed here (or not on PATH)\n",
    );
  });

  it("leaves later commands of this process able to bundle after the repository is removed", async () => {
    // esbuild's service, started by the first bundle of a process, takes the process's folder as
    // every later build's default working folder: each build names its own, so a folder the
    // process was in and that is gone since breaks nothing.
    const cwd = repository("removed");
    await autogramsInProcess(
      ["eval", "agents/agent.ts", "cases.jsonl", "--offline", "--no-store", "--compare", "git:HEAD"],
      {
        cwd,
      },
    );
    rmSync(cwd, { recursive: true, force: true });
    const r = await autogramsInProcess([
      "eval",
      "samples/recruiter/agent.ts",
      "samples/recruiter/cases.yaml",
      "--offline",
      "--no-store",
    ]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
  });
});
