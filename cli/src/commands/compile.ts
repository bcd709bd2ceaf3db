import type { Command } from "commander";
import type { CompileFlags } from "../actions/compile.js";

export function registerCompile(program: Command): void {
  program
    .command("compile")
    .summary("compile an agent (.ts) to its graph and source map")
    .description("compile an agent (.ts) to its graph (<name>.graph.json) and source map (<name>.graph.json.map)")
    .argument("<file>", "the agent's TypeScript file")
    .option("-o, --out <file>", "where to write the graph ('-' for stdout, without a map); default: beside the agent")
    .option("-w, --watch", "compile again whenever the file changes")
    .option(
      "--no-typecheck",
      "do not type-check the agent with TypeScript's checker (by default its errors, with the nearest tsconfig.json, are errors of the build)",
    )
    .action(async (file: string, flags: CompileFlags) =>
      (await import("../actions/compile.js")).compileCommand(file, flags),
    );
}
