import type { Command } from "commander";

const collect = (value: string, previous: string[]) => [...previous, value];

/**
 * Who an HTTP command answers (`serve`, `mcp --http`): the bearer token every request must carry,
 * and the `Host` names answered besides the bound address.
 */
export function addAccessOptions(command: Command): Command {
  return command
    .option(
      "--token <token>",
      "require Authorization: Bearer <token> on every request (default: AUTOGRAMS_TOKEN); letters, digits, -._~+/ and = at its end",
    )
    .option("--token-file <file>", "read the token from this file (its first line), so that it does not show in ps")
    .option(
      "--allowed-host <name>",
      "answer requests for this Host name too (a proxy in front); on loopback only localhost and the bound address are answered (repeatable)",
      collect,
      [],
    );
}
