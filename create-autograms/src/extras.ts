// What a starter may come with besides the agent: a store for its conversations, and the MCP SDK
// for tools of MCP servers. Each adds packages and scripts to the starter's package.json.

export interface Extras {
  /** Keep conversations in SQLite (`chat --store`, `serve`): the store's driver, a `serve` script. */
  store?: boolean;
  /** Tools of MCP servers (`import ... from "mcp:NAME"`): the MCP SDK, an `mcp-types` script. */
  mcp?: boolean;
}

/** The packages each extra adds, at the ranges the command line accepts (its optional peers). */
export const EXTRA_PACKAGES = {
  store: { "better-sqlite3": "^12.11.1" },
  mcp: { "@modelcontextprotocol/sdk": "^1.32.2" },
} as const;

const EXTRA_SCRIPTS = {
  store: {
    "dev:store": "autograms chat agent.ts --offline --store",
    serve: "autograms serve agent.ts --offline",
  },
  mcp: { "mcp-types": "autograms mcp-types -o mcp-tools.d.ts" },
} as const;

interface PackageJson {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
}

/** The starter's package.json with the chosen extras' packages and scripts. */
export function withExtras(pkg: PackageJson, extras: Extras): PackageJson {
  const chosen = (["store", "mcp"] as const).filter((e) => extras[e]);
  return {
    ...pkg,
    scripts: Object.assign({ ...pkg.scripts }, ...chosen.map((e) => EXTRA_SCRIPTS[e])),
    dependencies: Object.assign({ ...pkg.dependencies }, ...chosen.map((e) => EXTRA_PACKAGES[e])),
  };
}

/** The lines of the next steps that say what each extra chosen gives. */
export function extraSteps(extras: Extras): string[] {
  return [
    ...(extras.store
      ? [
          "  npm run dev:store  # the same, each conversation kept in .autograms/threads.db",
          "  npm run serve      # the agent over HTTP, with a playground page",
        ]
      : []),
    ...(extras.mcp ? ["  npm run mcp-types  # once .mcp.json names your MCP servers: their tools' types"] : []),
  ];
}
