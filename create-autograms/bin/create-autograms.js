#!/usr/bin/env node
// `npm create autograms [DIR]` runs this: writes a starter project into DIR (default: here).
import { createStarter, nextSteps, StarterError } from "../dist/index.js";

const args = process.argv.slice(2);
if (args.includes("-h") || args.includes("--help") || args.length > 1 || args.some((a) => a.startsWith("-"))) {
  const help =
    "Usage: npm create autograms [DIR]\n\nwrites a starter AutoGRAMS project into DIR (default: the current folder, which must be empty)\n";
  const asked = args.includes("-h") || args.includes("--help");
  (asked ? process.stdout : process.stderr).write(help);
  process.exit(asked ? 0 : 2);
}
try {
  process.stdout.write(nextSteps(createStarter(args[0] ?? ".")));
} catch (err) {
  if (!(err instanceof StarterError)) throw err;
  process.stderr.write(`create-autograms: ${err.message}\n`);
  process.exit(1);
}
