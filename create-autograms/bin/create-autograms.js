#!/usr/bin/env node
// `npm create autograms [DIR]` runs this: writes a starter project into DIR (default: here).
import { parseArgs } from "node:util";
import { askExtras, createStarter, nextSteps, StarterError, tarballFolder, version } from "../dist/index.js";

const HELP = `Usage: npm create autograms [DIR] [-- options]

writes a starter AutoGRAMS project into DIR (default: the current folder, which must be empty)

Options:
  --name <name>      the package name in package.json (default: the folder's name)
  --store            keep conversations in a store (SQLite): its driver, the scripts dev:store and serve
  --mcp              tools of MCP servers: the MCP SDK, the script mcp-types
  --no-store, --no-mcp   without them, not asked
  --tarballs <dir>   install the autograms packages from their tarballs in DIR (docs/install.md);
                     found by itself when run as npm exec --package=DIR/create-autograms-${version}.tgz
  -h, --help         this help

On a terminal, it asks about the store and MCP when no flag says.
`;

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      help: { type: "boolean", short: "h" },
      name: { type: "string" },
      store: { type: "boolean" },
      "no-store": { type: "boolean" },
      mcp: { type: "boolean" },
      "no-mcp": { type: "boolean" },
      tarballs: { type: "string" },
    },
  });
} catch (err) {
  process.stderr.write(`create-autograms: ${err.message}\n\n${HELP}`);
  process.exit(2);
}
const { values, positionals } = parsed;
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
if (positionals.length > 1) {
  process.stderr.write(`create-autograms: one folder at most, not ${positionals.length}\n\n${HELP}`);
  process.exit(2);
}
const flag = (yes, no) => (yes ? true : no ? false : undefined);
try {
  const extras = await askExtras(
    { store: flag(values.store, values["no-store"]), mcp: flag(values.mcp, values["no-mcp"]) },
    { input: process.stdin, output: process.stdout },
  );
  const tarballs = values.tarballs ?? tarballFolder(version);
  const starter = createStarter(positionals[0] ?? ".", {
    ...(values.name === undefined ? {} : { name: values.name }),
    extras,
    ...(tarballs === undefined ? {} : { tarballs }),
  });
  process.stdout.write(nextSteps(starter));
} catch (err) {
  if (!(err instanceof StarterError)) throw err;
  process.stderr.write(`create-autograms: ${err.message}\n`);
  process.exit(1);
}
