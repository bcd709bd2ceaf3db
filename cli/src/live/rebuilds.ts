import { CliError } from "../agent-loading/cli-error.js";
import { plainText } from "../terminal/plain-text.js";
import type { DiagnosticSink } from "../agent-loading/compile-agent.js";
import { watchAgentFolder } from "./watch-files.js";

/** A build of the agent (an Agent, or what serves it): its diagnostics go to `diagnostics` (they are printed on stderr too). */
export type Build<T> = (diagnostics: DiagnosticSink) => Promise<T>;

/**
 * `--watch`: the agent built again on every save, one build at a time (a save during a build
 * builds again once it is done). A build that fails (its diagnostics on stderr) is reported, to
 * stderr and to `failed`, and changes nothing: the last good build goes on. `use` takes each good one;
 * one that ends after watching stopped (the command is stopping) goes to `discard` instead.
 */
export function rebuildOnSave<T>(
  agentFile: string,
  build: Build<T>,
  use: (built: T) => Promise<void>,
  failed: (message: string, diagnostics: string) => void = () => {},
  discard: (built: T) => Promise<void> = async () => {},
): () => void {
  let building: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const rebuild = async (): Promise<void> => {
    process.stderr.write(`(${agentFile} changed: building it again)\n`);
    let built: T;
    const diagnostics: string[] = [];
    try {
      built = await build((formatted) => {
        diagnostics.push(formatted(false));
        process.stderr.write(formatted(process.stderr.isTTY === true) + "\n");
      });
    } catch (err) {
      const why = plainText(err instanceof CliError ? err.message : err instanceof Error ? err.message : String(err));
      process.stderr.write(`(the edit does not build: ${why}; the last good build goes on)\n`);
      failed(why, diagnostics.join("\n"));
      return;
    }
    await (stopped ? discard(built) : use(built));
  };
  const changed = () => {
    if (building) {
      again = true;
      return;
    }
    building = rebuild()
      .catch(
        (err) => void process.stderr.write(`(reload failed: ${err instanceof Error ? err.message : String(err)})\n`),
      )
      .finally(() => {
        building = null;
        if (again) {
          again = false;
          changed();
        }
      });
  };
  const unwatch = watchAgentFolder(agentFile, changed);
  return () => {
    stopped = true;
    again = false;
    unwatch();
  };
}
