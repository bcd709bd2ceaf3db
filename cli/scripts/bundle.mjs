// Bundles the CLI, and writes the graph JSON Schema beside the graph package's build output (and
// the runtime's, which ships it too: `@autograms/runtime/graph.schema.json`).
//
// A cold start should load only what the command runs. cli/dist/autograms.mjs is the command line
// alone (commander, and each command's name, options and description); each command's action is a
// bundle of its own, cli/dist/autograms-<action>.mjs (from cli/src/actions/<action>.ts), which the
// command line imports when that command runs. An action bundle holds only the parts of the runtime
// and the compiler that the action imports by name: `autograms --help` loads no agent code, and
// `autograms compile` neither the model clients nor the graph validator.
import { build } from "esbuild";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { basename, dirname, join, sep } from "node:path";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const dist = join(root, "cli/dist");

const { graphSchema } = await import(join(root, "graph/dist/schema.js"));
for (const dir of ["graph/dist", "runtime/dist/graph"]) {
  mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, dir, "graph.schema.json"), JSON.stringify(graphSchema, null, 2) + "\n");
}

const common = {
  absWorkingDir: root,
  outdir: dist,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  metafile: true,
  // typescript (inside ts-morph) is large and loads itself; keep native and heavy packages outside
  // (esbuild finds its native binary beside its own module, so it cannot be bundled; create-autograms
  // reads its template folder beside its own module).
  external: ["ts-morph", "typescript", "better-sqlite3", "pg", "playwright-core", "esbuild", "create-autograms"],
  banner: {
    js: "import { createRequire as __autogramsRequire } from 'node:module'; const require = __autogramsRequire(import.meta.url);",
  },
  logLevel: "warning",
};

// The command line imports `../actions/<action>.js`: that is the action's own bundle.
const actionsApart = {
  name: "actions-apart",
  setup(b) {
    b.onResolve({ filter: /^\.\.\/actions\/[\w-]+\.js$/ }, (args) => ({
      path: `./autograms-${basename(args.path, ".js")}.mjs`,
      external: true,
    }));
  },
};

// Our packages' modules do nothing when imported but define their exports, so a bundle may leave
// out every module whose exports it does not use (the graph validator's schema check, about
// 200 KB of code, is not loaded by a command that never validates a graph).
const ownPackages = ["graph", "sandbox", "runtime", "compiler", "store", "server"].map(
  (p) => join(root, p, "dist") + sep,
);
const sideEffectFree = {
  name: "side-effect-free-packages",
  setup(b) {
    const again = Symbol("resolving");
    b.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === again || args.kind === "entry-point") return undefined;
      const found = await b.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: again,
      });
      const own = !found.external && ownPackages.some((dir) => found.path.startsWith(dir));
      return own ? { ...found, sideEffects: false } : found;
    });
  },
};

const actions = readdirSync(join(root, "cli/src/actions"))
  .filter((f) => f.endsWith(".ts"))
  .map((f) => basename(f, ".ts"));
const built = await Promise.all([
  build({ ...common, entryPoints: { autograms: join(root, "cli/src/main.ts") }, plugins: [actionsApart] }),
  build({
    ...common,
    entryPoints: Object.fromEntries(actions.map((a) => [`autograms-${a}`, join(root, "cli/src/actions", `${a}.ts`)])),
    plugins: [sideEffectFree],
  }),
  // The child process of a sandbox pool (commands that run code isolated start it: see sandbox-pool.ts).
  build({ ...common, entryPoints: { "autograms-sandbox-worker": join(root, "sandbox/dist/pool/worker.js") } }),
  // The worker thread of `autograms serve`'s turn pool (see agent-loading/served-builds.ts).
  build({
    ...common,
    entryPoints: { "autograms-serve-worker": join(root, "cli/src/agent-loading/serve-worker.ts") },
    plugins: [sideEffectFree],
  }),
]);

// Remove the action bundles of actions that are gone.
const written = new Set(built.flatMap((r) => Object.keys(r.metafile.outputs)).map((out) => join(root, out)));
for (const name of readdirSync(dist)) {
  if (/^autograms.*\.mjs(\.map)?$/.test(name) && !written.has(join(dist, name))) rmSync(join(dist, name));
}
