// The command that installs a starter's packages. While the autograms packages are not on the
// registry, `npm install` cannot find them: a starter made from the tarballs (`npm exec
// --package=DIR/create-autograms-V.tgz`, or given `--tarballs DIR`) installs them from there.
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";

/**
 * The tarballs a project installs (the runtime and the compiler need the graph format and the
 * sandbox; the CLI needs create-autograms, for `init`): docs/install.md.
 */
export const TARBALLS = [
  "autograms-runtime",
  "autograms-compiler",
  "autograms-cli",
  "create-autograms",
  "autograms-graph",
  "autograms-sandbox",
];

/**
 * The folder of the tarballs this starter came from: the one `npm exec --package=...tgz` ran it
 * from (npm passes the package as npm_config_package), when the others are beside it.
 */
export function tarballFolder(version: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const packages = (env.npm_config_package ?? "").split(",").map((p) => p.trim());
  const own = packages.find((p) => /(^|[\\/])create-autograms-[^\\/]*\.tgz$/.test(p));
  if (own === undefined) return undefined;
  const dir = dirname(resolve(own));
  return TARBALLS.every((t) => existsSync(resolve(dir, `${t}-${version}.tgz`))) ? dir : undefined;
}

/** `npm install`, or with a folder of tarballs, the install of the autograms packages from there. */
export function installCommand(version: string, tarballs: string | undefined): string {
  if (tarballs === undefined) return "npm install";
  const dir = resolve(tarballs);
  return `npm install ${TARBALLS.map((t) => quoted(resolve(dir, `${t}-${version}.tgz`))).join(" ")}`;
}

const quoted = (path: string) => (/^[\w./@:+-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`);
