#!/usr/bin/env node
// Packs every package (each workspace but the private ones) into an npm tarball, as `npm publish` would send it, for installing the
// packages into another project before (or without) the registry: `npm run pack [-- DIR]`, then
// `npm install DIR/*.tgz` there (docs/install.md). Builds first unless --no-build is given.
// Prints each tarball's absolute path, one per line.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const build = !args.includes("--no-build");
const dest = resolve(args.find((a) => !a.startsWith("--")) ?? join(root, "tarballs"));
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

if (build) execFileSync(npm, ["run", "build"], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
mkdirSync(dest, { recursive: true });
// The packages, not the private workspaces (the web sample is one: an app, not a package).
const json = (file) => JSON.parse(readFileSync(join(root, file), "utf8"));
const packages = json("package.json").workspaces.filter((dir) => !json(join(dir, "package.json")).private);
const packed = JSON.parse(
  execFileSync(
    npm,
    ["pack", ...packages.flatMap((dir) => ["--workspace", dir]), "--json", "--pack-destination", dest],
    {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    },
  ),
);
for (const p of packed) process.stdout.write(`${join(dest, p.filename)}\n`);
