import { existsSync, watch } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { CliError } from "../agent-loading/cli-error.js";
import { compileAgent, graphFileName } from "../agent-loading/compile-agent.js";
import { readText, writeText } from "../agent-loading/files.js";
import { reportError, reporting } from "../agent-loading/report-error.js";

export interface CompileFlags {
  out?: string;
  watch?: boolean;
  /** false with --no-typecheck. */
  typecheck?: boolean;
}

export function compileCommand(file: string, flags: CompileFlags): Promise<void> {
  return reporting("compile", async () => {
    if (/\.json$/i.test(file))
      throw new CliError(`'${file}' is JSON, not an agent: compile takes the agent's TypeScript file (.ts)`, 2);
    compileOnce(file, flags);
    if (flags.watch) await watchFile(file, flags);
  });
}

/** Compiles and writes the graph and its map; prints diagnostics tsc-style. Throws a CliError on errors. */
function compileOnce(file: string, flags: CompileFlags): void {
  const source = readText(file);
  const fileName = relative(process.cwd(), resolve(file)).split("\\").join("/");
  const { graph, json, sourceMap, failure } = compileAgent(
    source,
    fileName,
    undefined,
    flags.typecheck === false ? undefined : file,
  );
  if (failure !== null) throw new CliError(failure);
  if (flags.out === "-") {
    process.stdout.write(json);
    return;
  }
  const out = flags.out ?? join(dirname(file), graphFileName(file));
  // The map sits beside the graph and names the agent file relative to itself.
  sourceMap.file = basename(out);
  sourceMap.sources = [
    relative(dirname(resolve(out)), resolve(file))
      .split("\\")
      .join("/"),
  ];
  writeText(out, json);
  writeText(`${out}.map`, JSON.stringify(sourceMap) + "\n");
  process.stdout.write(`${out} (${graph.nodes.length} nodes)\n`);
}

function watchFile(file: string, flags: CompileFlags): Promise<never> {
  let timer: NodeJS.Timeout | undefined;
  // Watch the directory: editors often save by replacing the file, which ends a watch on it.
  watch(dirname(resolve(file)), (_event, changed) => {
    if (changed !== null && changed !== basename(file)) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (!existsSync(file)) return;
      const started = performance.now();
      let ok = true;
      try {
        compileOnce(file, flags);
      } catch (err) {
        ok = false;
        reportError("compile", err);
      }
      process.stderr.write(
        `${ok ? "compiled" : "failed"} in ${Math.round(performance.now() - started)} ms; watching\n`,
      );
    }, 50);
  });
  // Said once the watch is in place, so a change made after reading it is never missed.
  process.stderr.write(`watching ${file} (Ctrl-C to stop)\n`);
  return new Promise<never>(() => {});
}
