import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Plugin, Message } from "esbuild";
import { RUNTIME_TOOLS, type Tool, type ToolInfo } from "@autograms/runtime";
import { CliError } from "./cli-error.js";

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * The implementations of the graph's tools. The agent file itself never runs: only the modules it
 * imports tools from, bundled by esbuild from the agent's folder (so TypeScript tool modules and
 * `./tools.js` specifiers work as they do for the agent) into one temporary module that is imported.
 */
export async function loadTools(tools: Record<string, ToolInfo> | undefined, baseDir: string, importer: string): Promise<Record<string, Tool>> {
  // The runtime's own functions (tryTool, buildReactPrompt, ...) come with every Agent.
  const builtin = (t: ToolInfo) => t.module === "@autograms/runtime" && (RUNTIME_TOOLS as readonly string[]).includes(t.export);
  const entries = Object.entries(tools ?? {}).filter(([, t]) => !builtin(t));
  if (entries.length === 0) return {};
  // One line per tool, so an error in this entry names its tool.
  const entry = entries
    .map(([, t], i) => `export { ${IDENTIFIER.test(t.export) ? t.export : JSON.stringify(t.export)} as __tool${i} } from ${JSON.stringify(t.module)};`)
    .join("\n");
  const { build } = await import("esbuild");
  let code: string;
  try {
    const result = await build({
      stdin: { contents: entry, loader: "ts", resolveDir: baseDir },
      bundle: true, write: false, platform: "node", format: "esm", target: "node20",
      logLevel: "silent", plugins: [packagesInPlace],
    });
    code = result.outputFiles[0]!.text;
  } catch (err) {
    const errors = (err as { errors?: Message[] }).errors ?? [];
    if (!errors.length) throw err;
    throw new CliError(`cannot load the agent's tools:\n${errors.map((e) => `  ${describe(e, entry.split("\n"), entries, importer)}`).join("\n")}`);
  }
  const dir = mkdtempSync(join(tmpdir(), "autograms-tools-"));
  let exports: Record<string, unknown>;
  try {
    const file = join(dir, "tools.mjs");
    writeFileSync(file, code);
    exports = await import(pathToFileURL(file).href) as Record<string, unknown>;
  } catch (err) {
    throw new CliError(`the agent's tool modules failed to load: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return Object.fromEntries(entries.map(([name, t], i) => {
    const fn = exports[`__tool${i}`];
    if (typeof fn !== "function") {
      throw new CliError(`tool '${name}': export '${t.export}' of '${t.module}' is ${fn === undefined ? "undefined" : `a ${typeof fn}`}, not a function`);
    }
    return [name, fn as Tool];
  }));
}

function describe(e: Message, lines: string[], entries: [string, ToolInfo][], importer: string): string {
  const loc = e.location;
  if (!loc) return e.text;
  // An error in the generated entry is about the tool of that line.
  const [name, t] = entries[lines.indexOf(loc.lineText)] ?? [];
  if (name && t) return `tool '${name}' (export '${t.export}' of '${t.module}', imported by ${importer}): ${e.text}`;
  return `${loc.file}:${loc.line}:${loc.column + 1}: ${e.text}`;
}

// Packages the tools import stay outside the bundle, imported from where they are installed (found
// from the importing file's folder), so native modules work and the temporary file resolves nothing.
// A package name that a tsconfig `paths` entry maps to TypeScript source is bundled: Node could
// not load it.
const NODE_LOADS = /\.(?:[cm]?js|json|node)$/;

const packagesInPlace: Plugin = {
  name: "packages-in-place",
  setup(build) {
    const again = Symbol("resolving");
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === again || isAbsolute(args.path) || isBuiltin(args.path)) return undefined;
      const found = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: again });
      if (found.errors.length) return { errors: found.errors };
      if (found.external) return { path: args.path, external: true };
      return NODE_LOADS.test(found.path) ? { path: pathToFileURL(found.path).href, external: true } : { path: found.path };
    });
  },
};
