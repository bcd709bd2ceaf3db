import type { Command } from "commander";

export function registerInit(program: Command): void {
  program
    .command("init")
    .summary("write a starter project: an agent, a scripted test, scripts, VS Code debugging")
    .description(
      "write a starter project into DIR (default: the current folder, which must be empty): agent.ts, a Vitest test holding a scripted conversation with it, package.json with the scripts dev (chat offline), chat, graph, typecheck and test, tsconfig.json, .gitignore and .vscode/launch.json; the same as `npm create autograms` (docs/install.md)",
    )
    .argument("[dir]", "the folder to write into", ".")
    .option("--name <name>", "the package name in package.json (default: the folder's name)")
    .action(async (dir: string, flags: { name?: string }) =>
      (await import("../actions/init.js")).initCommand(dir, flags),
    );
}
