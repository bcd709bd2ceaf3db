import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import { tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Plugin, Message } from "esbuild";
import {
  RUNTIME_TOOLS,
  isActionDefinition,
  type ActionDefinition,
  type Graph,
  type Tool,
  type ToolInfo,
} from "@autograms/runtime";
import { inProject, outsideProject, type Project } from "./project-files.js";
import { CliError } from "./cli-error.js";

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** What the Agent needs besides the graph: the implementations of its tools and custom actions. */
export interface HostCode {
  tools: Record<string, Tool>;
  actions: ActionDefinition<any, any>[];
  /** The agent's own modules they came from (absolute paths; not those of installed packages), for the playground to show. */
  files: string[];
}

/**
 * Bundles a thread has imported, by their text (`--watch`: a worker that makes the agent of a later
 * build whose bundle is the same): Node cannot unload an ES module, so the same bundle is imported
 * once and its modules' state goes on across saves that do not change them.
 */
export type LoadedBundles = Map<string, Record<string, unknown>>;

/** An export of a module the agent imports: a tool, or a custom action. */
type Imported = { kind: "tool" | "action"; name: string; info: ToolInfo };

/**
 * The agent's tool and action modules bundled into the code of one module, not yet imported:
 * plain data, so one bundle made in a server's thread serves every worker thread that imports it.
 * null: the graph imports nothing.
 */
export type HostBundle = { code: string; files: string[]; entries: Imported[] } | null;

/**
 * The bundle of the graph's tool and custom action modules (esbuild: no code of the agent's runs).
 * The agent file itself never runs: only the modules it imports them from, bundled from the
 * agent's folder (so TypeScript modules and `./tools.js` specifiers work as they do for the agent)
 * into one module that `importHostCode` imports.
 */
export async function bundleHostCode(
  graph: Pick<Graph, "tools" | "actions">,
  baseDir: string,
  importer: string,
  project?: Project,
): Promise<HostBundle> {
  // The runtime's own functions (tryTool, buildReactPrompt, ...) come with every Agent.
  const builtin = (t: ToolInfo) =>
    t.module === "@autograms/runtime" && (RUNTIME_TOOLS as readonly string[]).includes(t.export);
  const entries: Imported[] = [
    ...Object.entries(graph.tools ?? {})
      .filter(([, t]) => !builtin(t))
      .map(([name, info]) => ({ kind: "tool" as const, name, info })),
    ...Object.entries(graph.actions ?? {}).map(([name, info]) => ({ kind: "action" as const, name, info })),
  ];
  if (entries.length === 0) return null;
  // One line per export, so an error in this entry names its tool or action.
  const entry = entries
    .map(
      ({ info: t }, i) =>
        `export { ${IDENTIFIER.test(t.export) ? t.export : JSON.stringify(t.export)} as __export${i} } from ${JSON.stringify(t.module)};`,
    )
    .join("\n");
  const { build } = await import("esbuild");
  let code: string;
  let files: string[];
  try {
    const result = await build({
      stdin: { contents: entry, loader: "ts", resolveDir: baseDir },
      ...IN_PROCESS_BUNDLE,
      absWorkingDir: resolve(baseDir),
      plugins: project ? [packagesInPlace, onlyInside(project)] : [packagesInPlace],
      metafile: true,
    });
    code = result.outputFiles[0]!.text;
    files = Object.keys(result.metafile.inputs)
      .filter((f) => f !== "<stdin>" && !/(^|\/)node_modules\//.test(f))
      .map((f) => resolve(baseDir, f));
  } catch (err) {
    const errors = (err as { errors?: Message[] }).errors ?? [];
    if (!errors.length) throw err;
    const what = entries.some((e) => e.kind === "action")
      ? entries.some((e) => e.kind === "tool")
        ? "tools and actions"
        : "actions"
      : "tools";
    throw new CliError(
      `cannot load the agent's ${what}:\n${errors.map((e) => `  ${describe(e, entry.split("\n"), entries, importer)}`).join("\n")}`,
    );
  }
  return { code, files, entries };
}

/** The implementations a bundle exports, imported (reused from `bundles` when its code was imported before). */
export async function importHostCode(bundle: HostBundle, bundles?: LoadedBundles): Promise<HostCode> {
  if (bundle === null) return { tools: {}, actions: [], files: [] };
  const { code, files, entries } = bundle;
  let exports = bundles?.get(code);
  if (!exports) {
    exports = await importBundle(code, entries);
    bundles?.set(code, exports);
  }
  return hostCodeOf(exports, entries, files);
}

async function importBundle(code: string, entries: Imported[]): Promise<Record<string, unknown>> {
  try {
    return await importCode(code, "tools");
  } catch (err) {
    throw new CliError(
      `the agent's ${entries.some((e) => e.kind === "action") ? "tool and action" : "tool"} modules failed to load: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/**
 * esbuild's options for code bundled into one module that this process imports (`importCode`).
 * Each build also names its `absWorkingDir`: esbuild's default is the folder the process was in
 * when its service started, which a process that changes folders (or removes one) leaves wrong.
 */
export const IN_PROCESS_BUNDLE = {
  bundle: true,
  write: false,
  platform: "node",
  format: "esm",
  target: "node20",
  logLevel: "silent",
} as const;

/** Imports a bundle's code: from a temporary file, as Node imports ES modules from files only. */
export async function importCode(code: string, name: string): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), `autograms-${name}-`));
  try {
    const file = join(dir, `${name}.mjs`);
    writeFileSync(file, code);
    return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function hostCodeOf(exports: Record<string, unknown>, entries: Imported[], files: string[]): HostCode {
  const loaded: HostCode = { tools: {}, actions: [], files };
  entries.forEach(({ kind, name, info: t }, i) => {
    const value = exports[`__export${i}`];
    const what = value === undefined ? "undefined" : `a ${typeof value}`;
    if (kind === "tool") {
      if (typeof value !== "function")
        throw new CliError(`tool '${name}': export '${t.export}' of '${t.module}' is ${what}, not a function`);
      loaded.tools[name] = value as Tool;
    } else {
      if (!isActionDefinition(value))
        throw new CliError(
          `action '${name}': export '${t.export}' of '${t.module}' is ${what}, not an action made with defineAction`,
        );
      loaded.actions.push(value);
    }
  });
  return loaded;
}

function describe(e: Message, lines: string[], entries: Imported[], importer: string): string {
  const loc = e.location;
  if (!loc) return e.text;
  // An error in the generated entry is about the tool or action of that line.
  const found = entries[lines.indexOf(loc.lineText)];
  if (found)
    return `${found.kind} '${found.name}' (export '${found.info.export}' of '${found.info.module}', imported by ${importer}): ${e.text}`;
  return `${loc.file}:${loc.line}:${loc.column + 1}: ${e.text}`;
}

/** Refuses, before it is read, a module that is outside the project once its links are followed. */
function onlyInside(project: Project): Plugin {
  return {
    name: "only-inside-project",
    setup(build) {
      build.onLoad({ filter: /.*/ }, (args) =>
        inProject(project, args.path) ? undefined : { errors: [{ text: outsideProject(project, args.path) }] },
      );
    },
  };
}

// Packages the tools import stay outside the bundle, imported from where they are installed (found
// from the importing file's folder), so native modules work and the temporary file resolves nothing.
// A package name that a tsconfig `paths` entry maps to TypeScript source is bundled: Node could
// not load it.
const NODE_LOADS = /\.(?:[cm]?js|json|node)$/;

export const packagesInPlace: Plugin = {
  name: "packages-in-place",
  setup(build) {
    const again = Symbol("resolving");
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === again || isAbsolute(args.path) || isBuiltin(args.path)) return undefined;
      const found = await build.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: again,
      });
      if (found.errors.length) return { errors: found.errors };
      if (found.external) return { path: args.path, external: true };
      return NODE_LOADS.test(found.path)
        ? { path: pathToFileURL(found.path).href, external: true }
        : { path: found.path };
    });
  },
};
