// The starter that `npm create autograms` and `autograms init` write (create-autograms), in process;
// test/packages/from-tarballs.scale.ts installs it and runs its test.
import { afterEach, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createStarter, StarterError, version } from "create-autograms";

const root = fileURLToPath(new URL("../..", import.meta.url));
const json = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Record<string, Record<string, string>>;

let temp: string | undefined;
const tempDir = () => (temp = mkdtempSync(join(tmpdir(), "autograms-starter-")));
afterEach(() => temp && rmSync(temp, { recursive: true, force: true }));

describe("createStarter", () => {
  it("writes the agent, its test, scripts, tsconfig, .gitignore and a VS Code launch configuration", () => {
    const dir = join(tempDir(), "My Agent");
    const starter = createStarter(dir);
    expect(starter.name).toBe("my-agent");
    expect([...starter.files].sort()).toEqual([
      ".gitignore",
      ".vscode/launch.json",
      "README.md",
      "agent.ts",
      "package.json",
      "test/agent.test.ts",
      "tsconfig.json",
    ]);
    const pkg = json(join(dir, "package.json"));
    expect(pkg.name).toBe("my-agent" as never);
    expect(pkg.scripts).toMatchObject({ dev: "autograms chat agent.ts --offline", test: "vitest run" });
    for (const name of ["@autograms/runtime", "@autograms/compiler", "@autograms/cli"])
      expect(pkg.dependencies![name]).toBe(`^${version}`);
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toMatch(/^\*\.graph\.json$/m);
    expect(
      JSON.parse(readFileSync(join(dir, ".vscode/launch.json"), "utf8").replace(/^\s*\/\/.*$/gm, "")).configurations[0],
    ).toMatchObject({ type: "autograms", request: "launch", program: "${workspaceFolder}/agent.ts" });
  });

  it("asks for the versions of the packages it comes with, and the tools the repository uses", () => {
    const ownVersion = json(join(root, "create-autograms/package.json")).version as unknown as string;
    expect(version).toBe(ownVersion);
    const repoDev = json(join(root, "package.json")).devDependencies!;
    const dev = json(join(root, "create-autograms/template/package.json")).devDependencies!;
    for (const [name, range] of Object.entries(dev)) expect(`${name}@${range}`).toBe(`${name}@^${repoDev[name]}`);
  });

  it("takes a folder that holds only .git, and a name given", () => {
    const dir = tempDir();
    mkdirSync(join(dir, ".git"));
    expect(createStarter(dir, { name: "@me/bot" }).name).toBe("@me/bot");
  });

  it("refuses a folder that is not empty, a file, or a name npm would refuse, writing nothing", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "notes.txt"), "mine");
    expect(() => createStarter(dir)).toThrow(StarterError);
    expect(() => createStarter(dir)).toThrow(/is not empty \(notes\.txt\): pick a new folder/);
    expect(() => createStarter(join(dir, "notes.txt"))).toThrow(/is a file, not a folder/);
    expect(() => createStarter(join(dir, "new"), { name: "Bad Name" })).toThrow(
      /'Bad Name' is not a valid npm package name/,
    );
    expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe("mine");
  });
});
