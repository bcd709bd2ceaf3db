// Packages the command uses only when asked (AI SDK providers, the OpenTelemetry SDK): loaded from
// the command's own installation, or else from the project it runs in (a command installed
// globally finds what the project installed). Missing, they are a usage error saying what to install.
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { CliError } from "./cli-error.js";

const notFound = (err: unknown, name: string) => {
  const e = err as NodeJS.ErrnoException;
  return (e?.code === "ERR_MODULE_NOT_FOUND" || e?.code === "MODULE_NOT_FOUND") && e.message.includes(name);
};

/** `why` starts the error's message: "--model anthropic:x", "OTEL_EXPORTER_OTLP_ENDPOINT is set". */
export async function loadOptional(name: string, install: string, why: string): Promise<Record<string, unknown>> {
  try {
    return (await import(name)) as Record<string, unknown>;
  } catch (err) {
    if (!notFound(err, name)) throw err;
  }
  try {
    const path = createRequire(join(process.cwd(), "package.json")).resolve(name);
    return (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (err) {
    if (!notFound(err, name)) throw err;
    throw new CliError(`${why}: the ${name} package is not installed: npm install ${install}`, 2);
  }
}
