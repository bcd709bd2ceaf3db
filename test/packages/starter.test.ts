// The starter that `npm create autograms` and `autograms init` write (create-autograms), in process;
// test/packages/from-tarballs.scale.ts installs it and runs its test.
import { afterEach, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import {
  askExtras,
  createStarter,
  EXTRA_PACKAGES,
  nextSteps,
  StarterError,
  tarballFolder,
  version,
} from "create-autograms";

const root = fileURLToPath(new URL("../..", import.meta.url));
const json = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Record<string, Record<string, string>>;

const temps: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "autograms-starter-"));
  temps.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

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

describe("the starter's extras and next steps", () => {
  const tarballs = [
    "autograms-runtime",
    "autograms-compiler",
    "autograms-cli",
    "create-autograms",
    "autograms-graph",
    "autograms-sandbox",
  ].map((t) => `${t}-${version}.tgz`);
  const tarballDir = () => {
    const dir = join(tempDir(), "tarballs");
    mkdirSync(dir);
    for (const t of tarballs) writeFileSync(join(dir, t), "");
    return dir;
  };

  it("adds the store's driver and the MCP SDK when asked, at the ranges the CLI accepts, with their scripts", () => {
    const dir = join(tempDir(), "app");
    const starter = createStarter(dir, { extras: { store: true, mcp: true } });
    const pkg = json(join(dir, "package.json"));
    const peers = json(join(root, "cli/package.json")).peerDependencies!;
    for (const [name, range] of Object.entries({ ...EXTRA_PACKAGES.store, ...EXTRA_PACKAGES.mcp })) {
      expect(pkg.dependencies![name]).toBe(range);
      expect(range).toBe(`^${peers[name]!.replace(/^\^/, "")}`);
    }
    expect(pkg.scripts).toMatchObject({
      "dev:store": "autograms chat agent.ts --offline --store",
      serve: "autograms serve agent.ts --offline",
      "mcp-types": "autograms mcp-types -o mcp-tools.d.ts",
    });
    expect(nextSteps(starter, dir)).toContain("npm run serve");
    const plain = json(join(createStarter(join(tempDir(), "plain")).dir, "package.json"));
    expect(Object.keys(plain.dependencies!)).toEqual(["@autograms/cli", "@autograms/compiler", "@autograms/runtime"]);
  });

  it("prints the tarballs' install when it knows where they are, and says how otherwise", () => {
    const from = tarballDir();
    const made = createStarter(join(tempDir(), "app"), { tarballs: from });
    const steps = nextSteps(made, made.dir);
    expect(steps).toContain(`  npm install ${tarballs.map((t) => join(from, t)).join(" ")}\n`);
    expect(steps).not.toMatch(/^ {2}npm install$/m);
    const plain = nextSteps(createStarter(join(tempDir(), "plain")));
    expect(plain).toMatch(/^ {2}npm install\n.*tarballs.*\n.*--tarballs DIR.*docs\/install\.md/m);
    expect(() => createStarter(join(tempDir(), "x"), { tarballs: tempDir() })).toThrow(
      new RegExp(`--tarballs: there is no autograms-runtime-${version}\\.tgz in`),
    );
  });

  it("finds the tarballs' folder npm exec ran it from", () => {
    const from = tarballDir();
    const own = join(from, `create-autograms-${version}.tgz`);
    expect(tarballFolder(version, { npm_config_package: own })).toBe(from);
    expect(tarballFolder(version, { npm_config_package: "create-autograms" })).toBeUndefined();
    expect(tarballFolder(version, {})).toBeUndefined();
    rmSync(join(from, `autograms-cli-${version}.tgz`));
    expect(tarballFolder(version, { npm_config_package: own })).toBeUndefined();
  });

  it("asks on a terminal about what no flag settled, and nothing elsewhere", async () => {
    const terminal = () => {
      const input = Object.assign(new PassThrough(), { isTTY: true });
      const output = Object.assign(new PassThrough(), { isTTY: true });
      let asked = "";
      let answered = 0;
      // Each question once (readline echoes the answers to the terminal too): y to the store, n to MCP.
      output.on("data", (c: Buffer) => {
        asked += c.toString();
        if (asked.split("[y/N] ").length - 1 === answered) return;
        answered++;
        input.write(asked.trimEnd().endsWith("(adds the MCP SDK)? [y/N]") ? "n\n" : "y\n");
      });
      return { io: { input, output }, asked: () => asked };
    };
    const t = terminal();
    expect(await askExtras({}, t.io)).toEqual({ store: true, mcp: false });
    expect(t.asked()).toContain("Keep conversations in a store");
    const flagged = terminal();
    expect(await askExtras({ store: false }, flagged.io)).toEqual({ store: false, mcp: false });
    expect(flagged.asked()).not.toContain("store");
    const piped = { input: new PassThrough(), output: new PassThrough() };
    expect(await askExtras({}, piped)).toEqual({});
  });

  it("npm create autograms: the bin takes the options and finds the tarballs it was run from", () => {
    const from = tarballDir();
    const out = execFileSync(
      process.execPath,
      [join(root, "create-autograms/bin/create-autograms.js"), "app", "--store", "--no-mcp"],
      { cwd: tempDir(), env: { ...process.env, npm_config_package: join(from, `create-autograms-${version}.tgz`) } },
    ).toString();
    expect(out).toContain(`  npm install ${join(from, `autograms-runtime-${version}.tgz`)} `);
    expect(out).toContain("npm run serve");
    expect(out).not.toContain("mcp-types");
  });
});
