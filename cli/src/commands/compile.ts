import type { Command } from "commander";
import { existsSync, readFileSync, watch, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";

interface CompileFlags {
  out?: string;
  watch?: boolean;
}

export function registerCompile(program: Command): void {
  program
    .command("compile")
    .description("compile an agent (.ts) to its graph (<name>.graph.json) and source map (<name>.graph.json.map)")
    .argument("<file>", "the agent's TypeScript file")
    .option("-o, --out <file>", "where to write the graph ('-' for stdout, without a map); default: beside the agent")
    .option("-w, --watch", "compile again whenever the file changes")
    .action(async (file: string, flags: CompileFlags) => {
      if (!existsSync(file)) {
        process.stderr.write(`autograms compile: cannot read '${file}': no such file\n`);
        process.exitCode = 1;
        return;
      }
      const ok = await compileOnce(file, flags);
      if (!flags.watch) {
        process.exitCode = ok ? 0 : 1;
        return;
      }
      await watchFile(file, flags);
    });
}

/** Compiles and writes the graph and its map; prints diagnostics tsc-style. False on errors. */
async function compileOnce(file: string, flags: CompileFlags): Promise<boolean> {
  // Loaded here, not at the top: other commands should not pay for the compiler's start-up.
  const { compile, formatDiagnostics, graphToJson, graphFileName } = await import("@autograms/compiler");
  let source: string;
  try {
    source = readFileSync(file, "utf8");
  } catch (err) {
    process.stderr.write(`autograms compile: cannot read '${file}': ${(err as Error).message}\n`);
    return false;
  }
  const fileName = relative(process.cwd(), resolve(file)).split("\\").join("/");
  const { graph, diagnostics, sourceMap } = compile(source, { fileName });
  if (diagnostics.length) process.stderr.write(formatDiagnostics(diagnostics, source, { color: process.stderr.isTTY }) + "\n");
  if (!graph || !sourceMap) {
    const errors = diagnostics.filter((d) => d.severity === "error").length;
    process.stderr.write(`${errors} error${errors === 1 ? "" : "s"} in ${fileName}\n`);
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
      void compileOnce(file, flags).then((ok) => {
        process.stderr.write(`${ok ? "compiled" : "failed"} in ${Math.round(performance.now() - started)} ms; watching\n`);
      });
    }, 50);
  });
  // Said once the watch is in place, so a change made after reading it is never missed.
  process.stderr.write(`watching ${file} (Ctrl-C to stop)\n`);
  return new Promise<never>(() => {});
}
