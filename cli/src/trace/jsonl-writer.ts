import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { JsonValue, TraceEvent, TraceSink } from "@autograms/runtime";
import { CliError } from "../agent-loading/cli-error.js";
import { fileProblem } from "../agent-loading/files.js";

/**
 * A trace file: one JSON object per line, the runtime's TraceEvent plus `at`, the node's
 * `file:line:column` in the agent source (null for nodes without a location). Lines are written as
 * the events come, so a run that fails leaves every step up to the failure in the file.
 */
export class JsonlTraceWriter {
  private readonly fd: number;
  private readonly file: string;

  /** `sourceFile`: the agent source as `at` names it (see `sourceName`); `append` adds to the file instead of replacing it. */
  constructor(path: string, sourceFile: string, options: { append?: boolean } = {}) {
    try {
      mkdirSync(dirname(path), { recursive: true });
      this.fd = openSync(path, options.append ? "a" : "w");
    } catch (err) {
      throw new CliError(`cannot write the trace '${path}': ${fileProblem(err, "write")}`);
    }
    this.file = sourceFile;
  }

  /** A sink for reply(), call() or simulate(); `fields` go first on every line (e.g. the conversation's number). */
  sink(fields: Record<string, JsonValue> = {}): TraceSink {
    return (event: TraceEvent) => {
      const { kind, node, ...rest } = event;
      const at = event.loc ? `${this.file}:${event.loc.line}:${event.loc.column}` : null;
      // kind, node and at first, so the lines read well.
      writeSync(this.fd, JSON.stringify({ ...fields, kind, node, at, ...rest }) + "\n");
    };
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** Several sinks as one. */
export function fanOut(...sinks: (TraceSink | undefined)[]): TraceSink | undefined {
  const present = sinks.filter((s): s is TraceSink => s !== undefined);
  if (present.length <= 1) return present[0];
  return (event) => {
    for (const sink of present) sink(event);
  };
}
