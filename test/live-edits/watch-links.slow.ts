// `autograms serve` shows its clients the agent's sources (the playground's source view) and a
// failed build's diagnostics with their code frames (`GET /api/agent`), and prints them on stderr:
// only files of the agent's project may be read for that. An agent file or a module that becomes a
// link to a file outside the project (a save under --watch, or from the start) is refused with a
// message that names the link, never a line of where it leads.
import { beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { autograms, cliTestFolder, root } from "../cli/support/run-cli.js";
import { serveWatching, told } from "./support/serve-process.js";

const folder = cliTestFolder("autograms-watch-links-");

const AGENT = `import { Autogram, chatExact } from "@autograms/runtime";
import { price } from "./tools/prices.js";

export default class Stall extends Autogram {
  main() {
    chatExact(\`That is \${price()} pence.\`, { transitions: ["quit"] });
  }
}
`;
const PRICES = "export function price(): number {\n  return 30;\n}\n";
// Files outside the project: one that does not compile (its lines would be a code frame), one that does.
const SECRET_TEXT = "root:x:0:0:SECRET-LINE-1\nhunter2 SECRET-LINE-2\n";
const SECRET_MODULE = "// SECRET-MODULE-LINE\nexport function price(): number {\n  return 99;\n}\n";

/** Replaces `file` with a link to `target`, as one save. */
function becomeLink(file: string, target: string): void {
  symlinkSync(target, `${file}.link~`);
  renameSync(`${file}.link~`, file);
}

describe("autograms serve: files outside the agent's project", () => {
  let outside: string;
  beforeAll(() => {
    symlinkSync(join(root, "node_modules"), join(folder(), "node_modules"), "dir");
    outside = join(folder(), "elsewhere");
    mkdirSync(outside);
    writeFileSync(join(outside, "secret.ts"), SECRET_TEXT);
    writeFileSync(join(outside, "prices.ts"), SECRET_MODULE);
  });

  // The first save comes as soon as the server says it listens: it missed that save on a busy
  // machine while the folder was watched only after 'listening' was printed.
  it("--watch: a save that makes the agent file or a module a link out of the project is refused, nothing of it shown", {
    timeout: 240_000,
  }, async () => {
    const dir = mkdtempSync(join(folder(), "stall-"));
    mkdirSync(join(dir, "tools"), { recursive: true });
    writeFileSync(join(dir, "package.json"), "{}\n");
    const agentFile = join(dir, "agent.ts");
    const pricesFile = join(dir, "tools", "prices.ts");
    writeFileSync(agentFile, AGENT);
    writeFileSync(pricesFile, PRICES);
    const server = await serveWatching(dir, "1");
    const shown = async () =>
      [
        server.stderr(),
        await (await fetch(`${server.url}/api/agent`)).text(),
        await (await fetch(`${server.url}/playground/sources`)).text(),
      ].join("\n");
    const refused =
      /is outside the agent's project \(\.\) once its links are followed[^\n]*; the last good build goes on\)/g;

    becomeLink(agentFile, join(outside, "secret.ts"));
    await told(server.stderr, refused, 1);
    expect(server.stderr()).toMatch(/\(the edit does not build: agent\.ts is outside the agent's project/);
    const info = (await (await fetch(`${server.url}/api/agent`)).json()) as { build: { ok: boolean; message: string } };
    expect(info.build.ok).toBe(false);
    expect(info.build.message).toMatch(/^agent\.ts is outside the agent's project \(\.\) once its links are followed/);
    expect(await shown()).not.toMatch(/SECRET|hunter2|root:x/);

    // Back to a file of its own: built; then the module becomes a link out.
    rmSync(agentFile);
    writeFileSync(agentFile, AGENT.replace("pence.", "pence!"));
    await told(server.stderr, /\(serving the new build/, 1);
    becomeLink(pricesFile, join(outside, "prices.ts"));
    await told(server.stderr, refused, 2);
    expect(server.stderr()).toMatch(
      /\(the edit does not build: tools\/prices\.ts is outside the agent's project \(\.\) once its links are followed/,
    );
    expect(await shown()).not.toMatch(/SECRET/);
    // The last good build goes on: its own module's price.
    const sources = (await (await fetch(`${server.url}/playground/sources`)).json()) as {
      files: { path: string; text: string }[];
    };
    expect(sources.files.map((f) => f.path).sort()).toEqual(["agent.ts", "tools/prices.ts"]);
    expect(sources.files.find((f) => f.path === "tools/prices.ts")!.text).toBe(PRICES);
  });

  it("from the start: an agent file or a module that leads out of the project is refused, with and without --watch", {
    timeout: 180_000,
  }, async () => {
    const dir = join(folder(), "linked");
    mkdirSync(join(dir, "tools"), { recursive: true });
    symlinkSync(join(outside, "secret.ts"), join(dir, "agent.ts"));
    for (const watch of [[], ["--watch"]]) {
      const r = await autograms(["serve", "linked/agent.ts", "--offline", "--port", "0", ...watch], {
        cwd: folder(),
      });
      expect([r.code, r.stdout]).toEqual([1, ""]);
      expect(r.stderr).toBe(
        "autograms serve: linked/agent.ts is outside the agent's project (linked) once its links are followed: it is not read, so that nothing of it is shown; only the project's files are served\n",
      );
    }
    rmSync(join(dir, "agent.ts"));
    writeFileSync(join(dir, "agent.ts"), AGENT);
    symlinkSync(join(outside, "prices.ts"), join(dir, "tools", "prices.ts"));
    for (const watch of [[], ["--watch"]]) {
      const r = await autograms(["serve", "linked/agent.ts", "--offline", "--port", "0", ...watch], {
        cwd: folder(),
      });
      expect([r.code, r.stdout]).toEqual([1, ""]);
      expect(r.stderr).toMatch(/^autograms serve: linked\/tools\/prices\.ts is outside the agent's project \(linked\)/);
      expect(r.stderr).not.toMatch(/SECRET/);
    }
    // A module that does not parse is refused before the type checker or the bundler reads it: no
    // token of it is quoted.
    rmSync(join(dir, "tools", "prices.ts"));
    symlinkSync(join(outside, "secret.ts"), join(dir, "tools", "prices.ts"));
    const r = await autograms(["serve", "linked/agent.ts", "--offline", "--port", "0"], { cwd: folder() });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/linked\/tools\/prices\.ts is outside the agent's project \(linked\)/);
    expect(r.stderr).not.toMatch(/SECRET|hunter2|root/);
  });
});
