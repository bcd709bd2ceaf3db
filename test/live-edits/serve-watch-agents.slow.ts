// `autograms serve --watch` of two agents, each in a folder of its own: a save rebuilds that agent
// alone (the other's build untouched), and a save that does not build is that agent's failed
// build only, the other's still good.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "../cli/support/run-cli.js";
import { serveProcess, told, until } from "./support/serve-process.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "autograms-watch-agents-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Listed {
  agents: { name: string; build: { ok: boolean; at: number } }[];
}

describe("autograms serve --watch of two agents", () => {
  it("rebuilds each agent on its own", async () => {
    for (const [name, sample] of [
      ["tutor", "samples/tutor/agent.ts"],
      ["recruiter", "samples/recruiter/agent.ts"],
    ]) {
      mkdirSync(join(dir, name));
      copyFileSync(join(root, sample), join(dir, name, "agent.ts"));
    }
    const server = await serveProcess(dir, [
      ...["tutor", "recruiter"].map((n) => join(dir, n, "agent.ts")),
      ...["--watch", "--workers", "1", "--no-typecheck", "--offline", "--port", "0"],
      ...["--store", `sqlite:${join(dir, "threads.db")}`],
    ]);
    const builds = async () =>
      Object.fromEntries(
        ((await (await fetch(`${server.url}/api/agents`)).json()) as Listed).agents.map((a) => [a.name, a.build]),
      );
    const before = await builds();

    appendFileSync(join(dir, "tutor", "agent.ts"), "// saved\n");
    await told(server.stderr, /\(serving the new build/, 1);
    const after = await builds();
    expect(after.FractionTutor!.at).toBeGreaterThan(before.FractionTutor!.at);
    expect(after.Recruiter).toEqual(before.Recruiter);

    appendFileSync(join(dir, "recruiter", "agent.ts"), "this does not parse (\n");
    await until(
      async () => (await builds()).Recruiter!.ok === false,
      () => "the recruiter's failed build",
    );
    const broken = await builds();
    expect(broken.FractionTutor).toEqual(after.FractionTutor);
    expect(server.stderr().match(/\(serving the new build/g)).toHaveLength(1);
    // The agent whose save failed still serves its last good build.
    const opening = await fetch(`${server.url}/agents/Recruiter/api/threads/r/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: null }),
    });
    expect(opening.status).toBe(200);
    await opening.text();
  }, 90_000);
});
