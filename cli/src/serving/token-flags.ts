// The bearer token a command that answers HTTP requires (`serve`, `mcp --http`): one reading of
// --token, --token-file and AUTOGRAMS_TOKEN for both.
import { readFileSync } from "node:fs";
import { checkToken } from "@autograms/server";
import { CliError } from "../agent-loading/cli-error.js";

export interface TokenFlags {
  token?: string;
  tokenFile?: string;
}

/** --token, else --token-file's first line, else AUTOGRAMS_TOKEN; refused when no client could send it. */
export function tokenOf(flags: TokenFlags): string | undefined {
  if (flags.token !== undefined && flags.tokenFile !== undefined)
    throw new CliError("give --token or --token-file, not both", 2);
  let token = flags.token;
  let from = "--token";
  if (flags.tokenFile !== undefined) {
    try {
      token = readFileSync(flags.tokenFile, "utf8").split(/\r?\n/, 1)[0]!;
    } catch (err) {
      throw new CliError(
        `--token-file: cannot read ${flags.tokenFile} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
        2,
      );
    }
    from = `--token-file ${flags.tokenFile}`;
  } else if (token === undefined && process.env.AUTOGRAMS_TOKEN) {
    token = process.env.AUTOGRAMS_TOKEN;
    from = "AUTOGRAMS_TOKEN";
  }
  if (token === undefined) return undefined;
  try {
    checkToken(token);
  } catch (err) {
    throw new CliError(`${from}: ${(err as Error).message}`, 2);
  }
  return token;
}
