// `autograms chat --store/--thread/--busy` and `autograms threads ...`, run as a user runs them,
// on SQLite files (the shared store suite covers Postgres; test/store/processes.slow.ts has
// several processes on one thread).
import { describe, expect, it } from "vitest";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { autograms, autogramsInProcess, cliTestFolder, replies } from "./support/run-cli.js";
import { writeEchoGraph } from "../store/support/slow-model.js";
import { openStore, runTurn } from "@autograms/store";
import { echoAgent, echoGraph } from "../store/support/agents.js";

// Each test runs the command several times; a busy two-core machine may take seconds for each.
const CLI_TIMEOUT = 180_000;
const folder = cliTestFolder("autograms-threads-");
let n = 0;
/** A new store file and the echo agent's graph. */
function setup() {
  const dir = folder();
  return { dir, graph: writeEchoGraph(dir), store: `sqlite:${join(dir, `store${++n}.db`)}` };
}

const ID = /\(new thread ([0-9a-f-]{36}); continue it with --thread \1\)/;

describe("chat with a store", { timeout: CLI_TIMEOUT }, () => {
  it("starts a new thread, prints its id, and goes on with it in another process", async () => {
    const { graph, store } = setup();
    const first = await autogramsInProcess(["chat", graph, "--offline", "--store", store], {
      input: "hello\nhow are you\n",
    });
    expect(first.code).toBe(0);
    expect(replies(first.stdout)).toHaveLength(3);
    const [idLine, ...rest] = first.stdout.split("\n").filter(Boolean);
    expect(rest.every((l) => l.startsWith("Agent: "))).toBe(true);
    const id = ID.exec(idLine!)![1]!;

    const again = await autograms(["chat", graph, "--offline", "--store", store, "--thread", id], {
      input: "one more\n",
    });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`(resuming thread ${id} of `);
    expect(replies(again.stdout)).toEqual([replies(first.stdout)[2], expect.stringContaining("one more")]);

    const shown = await autogramsInProcess(["threads", "show", id, "--store", store, "--json"]);
    expect(shown.code).toBe(0);
    const json = JSON.parse(shown.stdout);
    expect(json).toEqual({
      id,
      turns: [
        { user: null, reply: "Hello! Say something." },
        { user: "hello", reply: replies(first.stdout)[1] },
        { user: "how are you", reply: replies(first.stdout)[2] },
        { user: "one more", reply: replies(again.stdout)[1] },
      ],
    });
  });

  it("uses the default file under .autograms/ with --store alone, and AUTOGRAMS_STORE when set", async () => {
    const { dir, graph } = setup();
    const r = await autogramsInProcess(["chat", graph, "--offline", "--store"], { input: "hi\n", cwd: dir });
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, ".autograms/threads.db"))).toBe(true);
    const id = ID.exec(r.stdout)![1]!;
    expect((await autogramsInProcess(["threads", "list"], { cwd: dir })).stdout).toContain(id);

    const other = `sqlite:${join(dir, "env.db")}`;
    const viaEnv = await autogramsInProcess(["chat", graph, "--offline", "--thread", "named"], {
      input: "hi\n",
      cwd: dir,
      env: { AUTOGRAMS_STORE: other },
    });
    expect(viaEnv.code).toBe(0);
    expect(viaEnv.stderr).toContain("(new thread named)");
    expect((await autogramsInProcess(["threads", "list", "--json", "--store", other])).stdout).toContain(
      '"id": "named"',
    );
    expect((await autogramsInProcess(["threads", "list"], { cwd: dir })).stdout).not.toContain("named");
  });

  it("refuses --memory with --store, --busy without a store, and an unknown policy (usage errors)", async () => {
    const { dir, graph, store } = setup();
    const both = await autogramsInProcess([
      "chat",
      graph,
      "--offline",
      "--store",
      store,
      "--memory",
      join(dir, "m.json"),
    ]);
    expect(both).toMatchObject({ code: 2, stdout: "" });
    expect(both.stderr).toContain("give one or the other");
    expect((await autogramsInProcess(["chat", graph, "--offline", "--busy", "enqueue"])).code).toBe(2);
    expect((await autogramsInProcess(["chat", graph, "--offline", "--store", store, "--busy", "later"])).code).toBe(2);
  });

  it("reports a store URL it cannot open in one line", async () => {
    const { graph } = setup();
    const r = await autogramsInProcess(["chat", graph, "--offline", "--store", "mysql://x"], { input: "hi\n" });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toEqual([expect.stringContaining("'mysql://x' is not a store URL")]);
  });
});

describe("autograms threads", { timeout: CLI_TIMEOUT }, () => {
  async function thread(store: string, graph: string, lines: string[]) {
    const r = await autogramsInProcess(["chat", graph, "--offline", "--store", store], {
      input: lines.map((l) => `${l}\n`).join(""),
    });
    return ID.exec(r.stdout)![1]!;
  }

  it("lists, forks at a turn, exports and deletes", async () => {
    const { graph, store } = setup();
    const id = await thread(store, graph, ["a", "b", "c"]);
    const list = await autogramsInProcess(["threads", "list", "--store", store]);
    expect(list.stdout).toMatch(new RegExp(`^${id}  Echo  4 turns  \\d{4}-`));

    const fork = await autogramsInProcess(["threads", "fork", id, "--at", "2", "--store", store]);
    expect(fork.code).toBe(0);
    const forkId = fork.stdout.trim();
    const shown = JSON.parse(
      (await autogramsInProcess(["threads", "show", forkId, "--json", "--store", store])).stdout,
    );
    expect(shown.turns.map((t: { user: string | null }) => t.user)).toEqual([null, "a"]);
    expect((await autogramsInProcess(["threads", "list", "--store", store])).stdout).toContain(
      `forked from ${id} at turn 2`,
    );
    const bad = await autogramsInProcess(["threads", "fork", id, "--at", "two", "--store", store]);
    expect(bad.code).toBe(2);

    const exported = JSON.parse((await autogramsInProcess(["threads", "export", id, "--store", store])).stdout);
    expect(exported).toMatchObject({ format: "autograms-thread", thread: { id, version: 4 } });
    expect(exported.turns).toHaveLength(4);
    expect(exported.memory.turn).toBe(4);

    const text = await autogramsInProcess(["threads", "show", id, "--store", store]);
    expect(text.stdout).toContain("#2\nYou: a\nAgent: ");

    // A turn answered again (a chat page's regenerate through autograms serve) is marked as replaced.
    const opened = await openStore(store);
    await runTurn(opened, echoAgent(), id, "c", { replaces: 4 }).finally(() => opened.close());
    const again = await autogramsInProcess(["threads", "show", id, "--store", store]);
    expect(again.stdout).toContain("#4 (replaced: answered again by a later turn)\nYou: c\nAgent: ");
    expect(again.stdout).toContain("#5\nYou: c\nAgent: ");

    // Not at a terminal: no confirmation asked.
    const del = await autogramsInProcess(["threads", "delete", id, "--store", store]);
    expect(del.code).toBe(0);
    for (const args of [
      ["show", id],
      ["show", id, "--json"],
      ["export", id],
      ["delete", id],
      ["fork", id, "--at", "1"],
    ]) {
      const r = await autogramsInProcess(["threads", ...args, "--store", store]);
      expect(r.code, args.join(" ")).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain(`no thread '${id}'`);
    }
    expect((await autogramsInProcess(["threads", "show", forkId, "--store", store])).code).toBe(0);
  });

  it("lists an agent's threads checked against it after an edit: a stranded thread is reported, not changed", async () => {
    const { dir, graph, store } = setup();
    const id = await thread(store, graph, ["a"]);
    const edited = join(dir, "edited.graph.json");
    writeFileSync(edited, JSON.stringify(echoGraph({ instruction: "Answer in French." })));
    const r = await autogramsInProcess(["threads", "list", "--agent", edited, "--store", store]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^${id}  Echo  2 turns  .*\\(cannot resume: stale_memory: .*'talk'`));
    const same = JSON.parse(
      (await autogramsInProcess(["threads", "list", "--agent", graph, "--json", "--store", store])).stdout,
    );
    expect(same.map((t: { check: unknown }) => t.check)).toEqual([{ id, resumable: true, problem: null, prompts: [] }]);
  });

  it("prunes by age and by count", async () => {
    const { graph, store } = setup();
    const id = await thread(
      store,
      graph,
      Array.from({ length: 60 }, (_, i) => `m${i}`),
    );
    const trimmed = await autogramsInProcess(["threads", "prune", "--keep-turns", "5", "--store", store]);
    expect(trimmed.stdout).toMatch(/^pruned 0 threads and \d+ turns\n$/);
    const left = JSON.parse(
      (await autogramsInProcess(["threads", "show", id, "--json", "--store", store])).stdout,
    ).turns;
    expect(left.length).toBeGreaterThanOrEqual(5);
    expect(left.length).toBeLessThan(61);
    expect((await autogramsInProcess(["threads", "prune", "--older-than", "1d", "--store", store])).stdout).toBe(
      "pruned 0 threads and 0 turns\n",
    );
    expect((await autogramsInProcess(["threads", "prune", "--older-than", "0s", "--store", store])).stdout).toMatch(
      /^pruned 1 thread and \d+ turns\n$/,
    );
    expect((await autogramsInProcess(["threads", "prune", "--older-than", "soon", "--store", store])).code).toBe(2);
    expect((await autogramsInProcess(["threads", "prune", "--store", store])).code).toBe(2);
  });
});
