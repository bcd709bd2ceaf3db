/**
 * Imports a cases file's scorer modules as the agent's tool modules are imported: TypeScript
 * bundled by esbuild (packages left where they are installed), then imported in this process.
 */
import { dirname, resolve } from "node:path";
import type { Message } from "esbuild";
import { IN_PROCESS_BUNDLE, importCode, packagesInPlace } from "../agent-loading/tools.js";

export async function importScorerModule(path: string): Promise<Record<string, unknown>> {
  const { build } = await import("esbuild");
  let code: string;
  try {
    const result = await build({
      ...IN_PROCESS_BUNDLE,
      absWorkingDir: dirname(resolve(path)),
      entryPoints: [resolve(path)],
      plugins: [packagesInPlace],
    });
    code = result.outputFiles[0]!.text;
  } catch (err) {
    const errors = (err as { errors?: Message[] }).errors ?? [];
    if (!errors.length) throw err;
    throw new Error(
      errors
        .map((e) => (e.location ? `${e.location.file}:${e.location.line}:${e.location.column + 1}: ${e.text}` : e.text))
        .join("; "),
    );
  }
  return importCode(code, "scorers");
}
