// Bundles the CLI into one file so a cold `autograms` start loads one module instead of hundreds,
// and writes the graph JSON Schema beside the runtime's build output.
import { build } from "esbuild";
import { writeFileSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

const { graphSchema } = await import(join(root, "runtime/dist/graph/schema.js"));
mkdirSync(join(root, "runtime/dist/graph"), { recursive: true });
writeFileSync(join(root, "runtime/dist/graph/graph.schema.json"), JSON.stringify(graphSchema, null, 2) + "\n");

await build({
  entryPoints: [join(root, "cli/src/main.ts")],
  outfile: join(root, "cli/dist/autograms.mjs"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  // typescript (inside ts-morph) is large and loads itself; keep native and heavy packages outside
  // (esbuild finds its native binary beside its own module, so it cannot be bundled).
  external: ["ts-morph", "typescript", "better-sqlite3", "playwright-core", "esbuild"],
  banner: { js: "import { createRequire as __autogramsRequire } from 'node:module'; const require = __autogramsRequire(import.meta.url);" },
  logLevel: "warning",
});
