// `autograms serve` of several agents: a folder (every agent in it or in a folder directly under
// it, its other modules left out) or several files, each agent under its name at /agents/NAME/,
// the first also at /, its threads apart; two files of one agent's name, or a folder with no
// agent, refused before anything listens.
import { describe, expect, it } from "vitest";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { autograms, cliTestFolder, root } from "./support/run-cli.js";
import { serveProcess, until } from "../live-edits/support/serve-process.js";

const folder = cliTestFolder("autograms-serve-agents-");
const TUTOR = join(root, "samples/tutor/agent.ts");
const RECRUITER = join(root, "samples/recruiter/agent.ts");
const OPTIONS = ["--offline", "--offline-pace", "0", "--workers", "0", "--no-typecheck", "--port", "0"];

const post = (url: string, body: unknown) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("autograms serve of many agents", () => {
  it("serves every agent of a folder under its name, the first in name order at /, their threads apart", async () => {
    const dir = join(folder(), "agents");
    mkdirSync(join(dir, "tutor"), { recursive: true });
    copyFileSync(RECRUITER, join(dir, "recruiter.ts"));
    copyFileSync(TUTOR, join(dir, "tutor", "agent.ts"));
    // A module beside the agents is not one of them.
    writeFileSync(join(dir, "helpers.ts"), "export const two = 2;\n");
    const server = await serveProcess(folder(), [dir, ...OPTIONS, "--store", `sqlite:${join(folder(), "a.db")}`]);
    // Said on stderr just after 'listening' on stdout.
    await until(
      () => /threads in/.test(server.stderr()),
      () => "the agents served on stderr",
    );
    expect(server.stderr()).toMatch(
      /\(agents Recruiter \(\/, and \/agents\/Recruiter\/\), FractionTutor \(\/agents\/FractionTutor\/\), threads in/,
    );
    const listed = await (await fetch(`${server.url}/api/agents`)).json();
    expect(listed.agents.map((a: { name: string; default: boolean }) => [a.name, a.default])).toEqual([
      ["Recruiter", true],
      ["FractionTutor", false],
    ]);
    const opening = await post(`${server.url}/agents/FractionTutor/api/threads/t1/runs`, { message: null });
    expect(opening.status).toBe(200);
    expect(await opening.text()).toContain("fractions tutor");
    const wrong = await post(`${server.url}/api/threads/t1/runs`, { message: "hi" });
    expect(wrong.status).toBe(409);
    expect((await wrong.json()).error.code).toBe("wrong_agent");
    expect((await (await fetch(`${server.url}/api/threads`)).json()).threads).toEqual([]);
  }, 60_000);

  it("serves several files; refuses two files of one agent's name, naming both, and a folder with no agent", async () => {
    const server = await serveProcess(folder(), [
      TUTOR,
      RECRUITER,
      ...OPTIONS,
      "--store",
      `sqlite:${join(folder(), "b.db")}`,
    ]);
    expect((await (await fetch(`${server.url}/api/agent`)).json()).name).toBe("FractionTutor");
    expect((await (await fetch(`${server.url}/agents/Recruiter/api/agent`)).json()).name).toBe("Recruiter");

    const copy = join(folder(), "tutor-copy.ts");
    copyFileSync(TUTOR, copy);
    const clash = await autograms(["serve", TUTOR, copy, ...OPTIONS], { cwd: folder() });
    expect(clash.code).toBe(1);
    expect(clash.stderr).toContain(`${TUTOR} and ${copy} both define the agent 'FractionTutor'`);
    mkdirSync(join(folder(), "empty"));
    const none = await autograms(["serve", join(folder(), "empty"), ...OPTIONS], { cwd: folder() });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("no agent in the folder");
  }, 60_000);
});
