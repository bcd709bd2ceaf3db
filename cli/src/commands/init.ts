import type { Command } from "commander";
import type { InitFlags } from "../actions/init.js";

export function registerInit(program: Command): void {
  program
    .command("init")
    .summary("write a starter project: an agent, a scripted test, scripts, VS Code debugging")
    .description(
      "write a starter project into DIR (default: the current folder, which must be empty): agent.ts, a Vitest test holding a scripted conversation with it, package.json with the scripts dev (chat offline), chat, graph, typecheck and test, tsconfig.json, .gitignore and .vscode/launch.json; the same as `npm create autograms` (docs/install.md)",
    )
    .argument("[dir]", "the folder to write into", ".")
    .option("--name <name>", "the package name in package.json (default: the folder's name)")
    .option("--store", "keep conversations in a store (SQLite): its driver, the scripts dev:store and serve")
    .option("--no-store", "without a store, not asked")
    .option("--mcp", "tools of MCP servers: the MCP SDK, the script mcp-types")
    .option("--no-mcp", "without the MCP SDK, not asked")
    .option("--tarballs <dir>", "install the autograms packages from their tarballs in this folder (docs/install.md)")
    .action(async (dir: string, flags: InitFlags) => (await import("../actions/init.js")).initCommand(dir, flags));
}
