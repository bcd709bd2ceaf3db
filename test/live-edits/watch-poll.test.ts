// A system whose file watches are used up (inotify's 128 instances per user, taken by browsers and
// other watchers): `watch` fails with EMFILE, and the agent's folder is looked at on a timer
// instead of its saves going unseen.
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { watchAgentFolder } from "../../cli/src/live/watch-files.js";
import { tempFolder } from "../server/support/harness.js";

const folder = tempFolder("autograms-watch-poll-");
const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});
afterAll(() => folder.remove());

const outOfWatches = (() => {
  throw Object.assign(new Error("EMFILE: too many open files, watch"), { code: "EMFILE" });
}) as unknown as typeof import("node:fs").watch;

const until = async (check: () => boolean) => {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("not seen within 10 s");
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe("watchAgentFolder when the system has no watches left", () => {
  it("looks at the folder on a timer, says so once, and sees atomic saves and new modules", async () => {
    const dir = join(folder.path, "agent");
    mkdirSync(join(dir, "tools"), { recursive: true });
    const agent = join(dir, "agent.ts");
    writeFileSync(agent, "// v1\n");
    let changes = 0;
    const told: string[] = [];
    stops.push(
      watchAgentFolder(agent, () => changes++, { quietMs: 20, watch: outOfWatches, onPolling: (w) => told.push(w) }),
    );
    expect(told).toEqual(["EMFILE"]);
    // An atomic save: a temporary file renamed over the agent.
    writeFileSync(`${agent}.tmp~`, "// v2, longer\n");
    renameSync(`${agent}.tmp~`, agent);
    await until(() => changes === 1);
    writeFileSync(join(dir, "tools", "prices.ts"), "export const p = 1;\n");
    await until(() => changes === 2);
    // What is not source (a log, a store) is no save.
    writeFileSync(join(dir, "loads.log"), "x\n");
    await new Promise((r) => setTimeout(r, 800));
    expect(changes).toBe(2);
    expect(told).toHaveLength(1);
  });
});
