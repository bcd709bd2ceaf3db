// `autograms eval AGENT --threads`: stored threads replayed on an edited build. An edit that sends
// one branch elsewhere is found in exactly the threads that took that branch, at the turn that
// took it, with the line where the paths part in each build.
import { describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openStore, runTurn } from "@autograms/store";
import { autogramsInProcess, cliTestFolder } from "../cli/support/run-cli.js";
import { SAMPLES_DIR } from "../samples/samples.js";
import { sampleAgent } from "./support.js";

const folder = cliTestFolder("autograms-eval-threads-");

const CONVERSATIONS: Record<string, string[]> = {
  "below-1": ["Yes, I am ready.", "Five years of Go.", "Below the range is fine."],
  "not-interested": ["No, I do not want to do the interview."],
  "below-2": ["Yes, ready.", "Ten years of Java.", "Below that, sure."],
  "in-range": ["Yes, ready.", "Some years.", "Somewhere in the range."],
};

/** A store with one thread per conversation, played on the recruiter as it is, offline. */
async function storeWithThreads(): Promise<string> {
  const url = `sqlite:${join(folder(), `threads-${Math.random().toString(36).slice(2)}.db`)}`;
  const store = await openStore(url);
  const agent = sampleAgent("recruiter");
  try {
    for (const [id, messages] of Object.entries(CONVERSATIONS)) {
      await store.createThread(id);
      await runTurn(store, agent, id, null);
      for (const text of messages) await runTurn(store, agent, id, text);
    }
  } finally {
    await store.close();
  }
  return url;
}

/** The recruiter with a line added at the top (every line moves down one) and `below_range` sent on to `negotiate`. */
function editedAgent(): string {
  const source = readFileSync(join(SAMPLES_DIR, "recruiter", "agent.ts"), "utf8");
  const edited = source.replace(
    '{ name: "below_range", transitions: ["write_note"] }',
    '{ name: "below_range", transitions: ["negotiate"] }',
  );
  expect(edited).not.toBe(source);
  const file = join(folder(), "agent.ts");
  writeFileSync(file, `// edited\n${edited}`);
  return file;
}

describe("autograms eval --threads", () => {
  it("finds exactly the threads that took the edited branch, at that turn, with the lines where they part", async () => {
    const store = await storeWithThreads();
    const json = join(folder(), "replay.json");
    const r = await autogramsInProcess(["eval", editedAgent(), "--threads", store, "--offline", "--json", json]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(1);
    const results = JSON.parse(readFileSync(json, "utf8")) as {
      thread: string;
      divergence: Record<string, any> | null;
    }[];
    const differ = Object.fromEntries(results.map((t) => [t.thread, t.divergence]));
    expect(Object.keys(differ).sort()).toEqual(["below-1", "below-2", "in-range", "not-interested"]);
    expect(differ["not-interested"]).toBeNull();
    expect(differ["in-range"]).toBeNull();
    for (const id of ["below-1", "below-2"]) {
      expect(differ[id]).toMatchObject({
        turn: 4,
        what: "path",
        lastShared: { node: "below_range", recorded: "agent.ts:51", now: "agent.ts:52" },
        recorded: { node: "write_note", at: "agent.ts:62" },
        now: { node: "negotiate", at: "agent.ts:54" },
        recordedReply: { node: "wrap_up", at: "agent.ts:64" },
        nowReply: { node: "negotiate", at: "agent.ts:54" },
      });
    }
    expect(r.stdout).toContain(
      "below-1  turn #4 differs (path)\n    parts after below_range (then agent.ts:51, now agent.ts:52): recorded write_note (agent.ts:62), now negotiate (agent.ts:54)\n",
    );
    expect(r.stdout).toMatch(
      /Recruiter: 4 threads replayed \(paths and replying nodes compared\), 2 went another way\n$/,
    );
  });

  it("the agent as it was: every thread the same, in a strict replay too, and nothing written to the store", async () => {
    const store = await storeWithThreads();
    const agent = join(SAMPLES_DIR, "recruiter", "agent.ts");
    const before = await autogramsInProcess(["threads", "show", "below-2", "--store", store, "--json"]);
    const loose = await autogramsInProcess(["eval", agent, "--threads", store, "--offline"]);
    expect(loose.code).toBe(0);
    expect(loose.stdout).toContain("below-2  4 turns: the same\n");
    const strict = await autogramsInProcess(["eval", agent, "--threads", store, "--strict"]);
    expect(strict.stderr).toBe("");
    expect(strict.code).toBe(0);
    expect(strict.stdout).toMatch(
      /Recruiter: 4 threads replayed \(recorded answers, replies compared\), 0 went another way\n$/,
    );
    const after = await autogramsInProcess(["threads", "show", "below-2", "--store", store, "--json"]);
    expect(after.stdout).toBe(before.stdout);
  });

  it("strict replay of the edited agent finds the same threads; --since leaves older threads out", async () => {
    const store = await storeWithThreads();
    const strict = await autogramsInProcess(["eval", editedAgent(), "--threads", store, "--strict"]);
    expect(strict.code).toBe(1);
    expect(strict.stdout.match(/turn #\d+ differs/g)).toEqual(["turn #4 differs", "turn #4 differs"]);
    const later = await autogramsInProcess([
      "eval",
      editedAgent(),
      "--threads",
      store,
      "--strict",
      "--since",
      "2999-01-01",
    ]);
    expect(later.code).toBe(0);
    expect(later.stdout).toBe(
      "Recruiter: 0 threads replayed (recorded answers, replies compared), 0 went another way\n",
    );
    const bad = await autogramsInProcess(["eval", editedAgent(), "--threads", store, "--since", "soon"]);
    expect(bad.code).toBe(2);
  });
});
