// The command line around an edit of the agent: a thread that cannot resume is refused by chat,
// reported by threads list, moved with threads migrate, or begun again with --on-stale restart; a
// thread that keeps an edited setPrompt's old text is told, and takes the new one when asked.
import { describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { autogramsInProcess as autograms, cliTestFolder, replies } from "../cli/support/run-cli.js";
import { EDITS, SHOP } from "./edit-table.js";
import { promptedAgent } from "./support/prompted-agent.js";

const folder = cliTestFolder("autograms-live-cli-");
const CHANGED = EDITS.find((r) => r.edit === "change X's own instruction")!.change(SHOP);

describe("a thread after an edit of its agent, from the command line", () => {
  it("keeps its prompt after an edit of setPrompt: listed, and taken with threads migrate --take-prompt", async () => {
    const agent = join(folder(), "helper.ts");
    const store = `sqlite:${join(folder(), "p.db")}`;
    writeFileSync(agent, promptedAgent("You are terse."));
    await autograms(["chat", agent, "--offline", "--store", store, "--thread", "t"], { input: "hi\n" });
    writeFileSync(agent, promptedAgent("You are friendly and terse."));
    const prompt = async () =>
      JSON.parse((await autograms(["threads", "export", "t", "--store", store])).stdout).memory.stack[0].prompt;
    const note = /keeps the old prompt of main: the agent's setPrompt text changed; threads migrate --take-prompt/;

    const listed = await autograms(["threads", "list", "--store", store, "--agent", agent]);
    expect(listed.stdout).toMatch(new RegExp(`^t .*${note.source}`, "m"));
    expect(listed.stdout).not.toContain("cannot resume");
    const kept = await autograms(["threads", "migrate", "t", "--to", "talk", "--agent", agent, "--store", store]);
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stderr).toMatch(note);
    expect(await prompt()).toBe("You are terse.");

    const taken = await autograms([
      "threads",
      "migrate",
      "t",
      "--to",
      "talk",
      "--take-prompt",
      "--agent",
      agent,
      "--store",
      store,
    ]);
    expect(taken.code, taken.stderr).toBe(0);
    expect(taken.stderr).toContain("its prompts are the agent's own now");
    expect(taken.stderr).not.toMatch(note);
    expect(await prompt()).toBe("You are friendly and terse.");
    expect((await autograms(["threads", "list", "--store", store, "--agent", agent])).stdout).not.toMatch(note);
  });

  it("is refused by chat, listed as stale, moved with threads migrate, then goes on", async () => {
    const agent = join(folder(), "shop.ts");
    const store = `sqlite:${join(folder(), "m.db")}`;
    writeFileSync(agent, SHOP);
    const first = await autograms(["chat", agent, "--offline", "--store", store, "--thread", "t"], {
      input: "show me\n",
    });
    expect(replies(first.stdout)).toEqual(["Welcome!", "Ready to check out?"]);
    writeFileSync(agent, CHANGED);

    const refused = await autograms(["chat", agent, "--offline", "--store", store, "--thread", "t"], {
      input: "yes\n",
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/stale_memory|node 'checkout'.*is not what it was/);
    expect((await autograms(["threads", "list", "--store", store, "--agent", agent])).stdout).toMatch(
      /^t .*cannot resume: stale_memory: .*node 'checkout'/m,
    );

    const wrong = await autograms(["threads", "migrate", "t", "--to", "nowhere", "--agent", agent, "--store", store]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(
      /error bad_migration: cannot move the conversation to 'nowhere': the graph has no such node/,
    );
    const moved = await autograms(["threads", "migrate", "t", "--to", "browse", "--agent", agent, "--store", store]);
    expect(moved.code).toBe(0);
    expect(moved.stderr).toMatch(
      /thread t now waits at 'browse' of Shop, its variables and turns kept \(turn 3 records the move\)/,
    );
    // browse leads back to checkout: the edited one.
    const next = await autograms(["chat", agent, "--offline", "--store", store, "--thread", "t"], { input: "more\n" });
    expect(next.code).toBe(0);
    expect(replies(next.stdout).at(-1)).toBe("Ready to pay?");
  });

  it("with --on-stale restart, begins a stale thread again (and a memory file's conversation)", async () => {
    const agent = join(folder(), "again.ts");
    const store = `sqlite:${join(folder(), "r.db")}`;
    const memory = join(folder(), "again.memory.json");
    writeFileSync(agent, SHOP);
    await autograms(["chat", agent, "--offline", "--store", store, "--thread", "t"], { input: "show me\n" });
    await autograms(["chat", agent, "--offline", "--memory", memory], { input: "show me\n" });
    writeFileSync(agent, CHANGED);
    for (const where of [
      ["--store", store, "--thread", "t"],
      ["--memory", memory],
    ]) {
      const again = await autograms(["chat", agent, "--offline", ...where, "--on-stale", "restart"], {
        input: "show me\n",
      });
      expect(again.code).toBe(0);
      expect(replies(again.stdout).slice(-2)).toEqual(["Welcome!", "Ready to pay?"]);
    }
    const bad = await autograms(["chat", agent, "--offline", "--memory", memory, "--on-stale", "forget"]);
    expect(bad.code).toBe(2);
  });
});
