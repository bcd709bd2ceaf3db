// What a command holds while it runs, and gives back when it ends however it ends (its result, an
// error, a usage error): what the agent opened (MCP servers, stopped; worker threads, ended; a
// store, closed), and with tracing, the trace exporter (flushed last, so it sends the spans of
// everything before). Every command runs in one (`reporting`), so a command that opens anything
// leaves nothing behind to keep the process from exiting.
import { startTracing } from "./tracing.js";

const atEnd: (() => Promise<void>)[] = [];

/** Done when the command ends, in the reverse order of registration. */
export function closeAtEnd(close: () => Promise<void>): void {
  atEnd.push(close);
}

export interface ScopeOptions {
  /** Export the command's spans when the OpenTelemetry variables ask for it (commands that run an agent). */
  traced?: boolean;
}

export async function commandScope<T>(run: () => Promise<T>, options: ScopeOptions = {}): Promise<T> {
  try {
    const tracing = options.traced ? await startTracing() : undefined;
    if (tracing) closeAtEnd(() => tracing.shutdown());
    return await run();
  } finally {
    for (const close of atEnd.splice(0).reverse()) await close().catch(() => undefined);
  }
}
