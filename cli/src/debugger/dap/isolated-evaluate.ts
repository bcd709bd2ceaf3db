// The DAP server's `evaluate` requests run in a sandbox pool's child process, not in the server:
// an expression that made V8 abort (out of memory) would otherwise end every session it serves.
import type { JsonValue, SandboxPool } from "@autograms/runtime";
import { cliSandboxPool } from "../../agent-loading/sandbox-pool.js";

let pool: SandboxPool | null = null;

/** `now`: the time of the turn the session stands in, which `Date.now()` gives the expression. */
export async function evaluateIsolated(
  code: string,
  variables: Record<string, JsonValue>,
  now: number | undefined,
): Promise<JsonValue> {
  pool ??= cliSandboxPool();
  return ((await pool.evaluate(code, variables, now === undefined ? {} : { now })).value ?? null) as JsonValue;
}
