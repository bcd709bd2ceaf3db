#!/usr/bin/env node
// Loads the bundled CLI (built by `npm run build`, which `npm ci` runs) and runs the command line.
// On Node 22.1 and later, V8's compiled code is cached on disk between runs
// (module.enableCompileCache), which shortens every start after the first; Node 20 has no such
// cache and starts as before.
import module from "node:module";

module.enableCompileCache?.();
const { main } = await import("../dist/autograms.mjs");
await main(process.argv);
// Work the command gave up on at its end (an OTLP export that took longer than its bound) holds
// no more than this.
if (globalThis[Symbol.for("autograms.exit-when-done")]) process.exit();
