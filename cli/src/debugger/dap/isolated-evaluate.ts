// The DAP server's `evaluate` requests run in a sandbox pool's child process, not in the server:
// an expression that made V8 abort (out of memory) would otherwise end every session it serves.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createSandboxPool, type JsonValue, type SandboxPool } from "@autograms/runtime";

let pool: SandboxPool | null = null;

/** The runtime's own child script (the pool's default is beside the pool's module, which a bundle moves). */
function workerPath(): string {
  return join(dirname(createRequire(import.meta.url).resolve("@autograms/runtime")), "sandbox", "pool", "worker.js");
}

export async function evaluateIsolated(code: string, variables: Record<string, JsonValue>): Promise<JsonValue> {
  pool ??= createSandboxPool({ size: 1, workerPath: workerPath() });
  return ((await pool.evaluate(code, variables)).value ?? null) as JsonValue;
}

export async function closeIsolatedEvaluation(): Promise<void> {
  await pool?.close();
  pool = null;
}
