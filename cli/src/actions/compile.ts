import { existsSync, readFileSync, watch, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { compileAgent, graphFileName, graphToJson } from "../agent-loading/compile-agent.js";

export interface CompileFlags {
  out?: string;
  watch?: boolean;
}

export async function compileCommand(file: string, flags: CompileFlags): Promise<void> {
  if (!existsSync(file)) {
    process.stderr.write(`autograms compile: cannot read '${file}': no such file\n`);
    process.exitCode = 1;
    return;
  }
  const ok = compileOnce(file, flags);
  if (!flags.watch) {
    process.exitCode = ok ? 0 : 1;
    return;
  }
  await watchFile(file, flags);
}

/** Compiles and writes the graph and its map; prints diagnostics tsc-style. False on errors. */
function compileOnce(file: string, flags: CompileFlags): boolean {
  let source: string;
  try {
    source = readFileSync(file, "utf8");
  } catch (err) {
    process.stderr.write(`autograms compile: cannot read '${file}': ${(err as Error).message}\n`);
    return false;
  }
  const fileName = relative(process.cwd(), resolve(file)).split("\\").join("/");
  const { graph, sourceMap, failure } = compileAgent(source, fileName);
  if (failure !== null) {
    process.stderr.write(`${failure}\n`);
    return false;
  }
  const json = graphToJson(graph);
  if (flags.out === "-") {
    process.stdout.write(json);
    return true;
  }
  const out = flags.out ?? join(dirname(file), graphFileName(file));
  // The map sits beside the graph and names the agent file relative to itself.
  sourceMap.file = basename(out);
  sourceMap.sources = [relative(dirname(resolve(out)), resolve(file)).split("\\").join("/")];
  writeFileSync(out, json);
  writeFileSync(`${out}.map`, JSON.stringify(sourceMap) + "\n");
  process.stdout.write(`${out} (${graph.nodes.length} nodes)\n`);
  return true;
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
      const ok = compileOnce(file, flags);
      process.stderr.write(`${ok ? "compiled" : "failed"} in ${Math.round(performance.now() - started)} ms; watching\n`);
    }, 50);
  });
  // Said once the watch is in place, so a change made after reading it is never missed.
  process.stderr.write(`watching ${file} (Ctrl-C to stop)\n`);
  return new Promise<never>(() => {});
}
