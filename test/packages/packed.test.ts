// What `npm publish` would send, checked without installing it: the file lists `npm pack
// --dry-run` gives for every workspace (one npm command, a few seconds). Each package carries its
// license and every file its manifest points at, no source maps nor build info; the packages it
// needs of this repository at its own version; every module its built code imports declared as a
// dependency or a peer (what an install from the tarballs would find missing). The install itself,
// into a fresh project, with the starter's test, tsc, chat and serve run there, is
// test/packages/from-tarballs.scale.ts (`npm run test:scale`): a minute of npm.
import { beforeAll, describe, expect, inject, it } from "vitest";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

interface Manifest {
  name: string;
  version: string;
  license?: string;
  private?: boolean;
  main?: string;
  types?: string;
  bin?: Record<string, string>;
  exports?: Record<string, unknown>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const manifest = (dir: string) => JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8")) as Manifest;
const workspaces = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { workspaces: string[] })
  .workspaces;
const packages = workspaces.filter((dir) => !manifest(dir).private);
/** Each package's folder → the paths of the files its tarball would hold. */
const packed = new Map<string, string[]>();

beforeAll(() => {
  // The packages' build output is the test run's own (test/support/build-cli.ts).
  const buildError = inject("cliBuildError");
  if (buildError) throw new Error(buildError);
  const out = execFileSync(
    npm,
    ["pack", "--dry-run", "--json", "--ignore-scripts", ...packages.flatMap((dir) => ["--workspace", dir])],
    { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
  );
  const lists = JSON.parse(out) as { name: string; files: { path: string }[] }[];
  for (const dir of packages) {
    const list = lists.find((l) => l.name === manifest(dir).name);
    if (list) packed.set(dir, list.files.map((f) => f.path).sort());
  }
}, 120_000);

/** Every path a manifest points at: main, types, bin, and each condition of each export. */
function pointedAt(pkg: Manifest): string[] {
  const targets: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === "string") targets.push(value);
    else if (value && typeof value === "object") Object.values(value).forEach(walk);
  };
  walk([pkg.main, pkg.types, pkg.bin, pkg.exports]);
  return targets.map((t) => t.replace(/^\.\//, ""));
}

/**
 * The packages the given built JavaScript files of `dir` import (static, dynamic with a literal
 * name, re-exports), each with a file that imports it. es-module-lexer reads ES module syntax as
 * Node does, text in comments and strings left alone, a few megabytes in a fraction of a second;
 * a require() of a computed name (how the CLI loads typescript) is not seen.
 */
async function importedPackages(dir: string, files: string[]): Promise<Map<string, string>> {
  const { init, parse } = await import("es-module-lexer");
  await init;
  const packages = new Map<string, string>();
  for (const file of files) {
    const [imports] = parse(readFileSync(join(root, dir, file), "utf8"), file);
    for (const { n: spec } of imports) {
      if (!spec || spec.startsWith(".") || spec.startsWith("/") || spec.startsWith("node:")) continue;
      const name = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!;
      if (!builtinModules.includes(name)) packages.set(name, file);
    }
  }
  return packages;
}

describe("the packages as npm would pack them", () => {
  it("packs every workspace but the private ones (the studio, samples/web), each with MIT, its LICENSE, and the repository's version", () => {
    expect(workspaces.filter((dir) => !packages.includes(dir))).toEqual(["studio", "samples/web"]);
    expect([...packed.keys()].sort()).toEqual([...packages].sort());
    const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;
    for (const dir of packages) {
      const pkg = manifest(dir);
      expect([dir, pkg.version, pkg.license]).toEqual([dir, version, "MIT"]);
      expect(packed.get(dir), dir).toContain("LICENSE");
      const main = pkg.exports?.["."] as { types?: string } | undefined;
      if (main) expect(main.types, `${dir}: exports["."].types`).toMatch(/\.d\.ts$/);
    }
  });

  it("holds every file each manifest points at, and no source maps, build info or tests", () => {
    for (const dir of packages) {
      const files = packed.get(dir)!;
      const missing = pointedAt(manifest(dir)).filter((target) => !files.includes(target));
      expect(missing, `${dir}: pointed at by package.json, not packed`).toEqual([]);
      expect(
        files.filter((f) => /\.map$|\.tsbuildinfo$|(^|\/)test\/.*\.test\.ts$/.test(f) && !f.startsWith("template/")),
        dir,
      ).toEqual([]);
    }
  });

  it("ships the CLI's bundles (the command, each action, the sandbox's and the server's workers)", () => {
    const bundles = readdirSync(join(root, "cli/dist")).filter((f) => /^autograms.*\.mjs$/.test(f));
    expect(bundles).toEqual(expect.arrayContaining(["autograms.mjs", "autograms-serve-worker.mjs"]));
    expect(packed.get("cli")!.filter((f) => f.startsWith("dist/"))).toEqual(bundles.map((f) => `dist/${f}`).sort());
  });

  it("ships the starter that npm create autograms writes: every file of the template", () => {
    const template = join(root, "create-autograms/template");
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(dir, e.name)) : [relative(join(root, "create-autograms"), join(dir, e.name))],
      );
    const expected = files(template).map((f) => f.replace(/\\/g, "/"));
    expect(expected.length).toBeGreaterThan(3);
    expect(packed.get("create-autograms")).toEqual(expect.arrayContaining(expected));
  });

  it("depends on the repository's own packages at the repository's version", () => {
    const names = new Map(packages.map((dir) => [manifest(dir).name, manifest(dir).version]));
    for (const dir of packages) {
      const pkg = manifest(dir);
      for (const [name, range] of Object.entries({ ...pkg.dependencies, ...pkg.peerDependencies }))
        if (names.has(name)) expect(`${dir} → ${name}@${range}`).toBe(`${dir} → ${name}@${names.get(name)}`);
    }
  });

  it("declares every module its built code imports, as a dependency or an optional peer", async () => {
    for (const dir of packages) {
      const pkg = manifest(dir);
      const declared = new Set([pkg.name, ...Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies })]);
      const code = packed.get(dir)!.filter((f) => /\.m?js$/.test(f) && !f.startsWith("template/"));
      const undeclared = [...(await importedPackages(dir, code))].filter(([name]) => !declared.has(name));
      expect(
        undeclared.map(([name, file]) => `${name} (${file})`),
        `${dir}: imported but not in package.json`,
      ).toEqual([]);
    }
  });

  it("@autograms/store/testing needs no vitest: its suite takes the runner it is given", async () => {
    const store = manifest("store");
    expect(Object.keys({ ...store.dependencies, ...store.peerDependencies })).not.toContain("vitest");
    const built = packed.get("store")!.filter((f) => f.startsWith("dist/testing/") && f.endsWith(".js"));
    expect(built).toContain("dist/testing/store-suite.js");
    expect([...(await importedPackages("store", built)).keys()]).not.toContain("vitest");
  });
});
