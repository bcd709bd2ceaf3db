// What a command that runs an agent holds while it runs, and gives back when it ends however it
// ends: the trace exporter (flushed last, so it sends the spans of everything before) and what the
// agent opened (MCP servers, stopped).
import { startTracing } from "./tracing.js";

const atEnd: (() => Promise<void>)[] = [];

/** Done when the command ends, in the reverse order of registration. */
export function closeAtEnd(close: () => Promise<void>): void {
  atEnd.push(close);
}

export async function commandScope<T>(run: () => Promise<T>): Promise<T> {
  const tracing = await startTracing();
  try {
    return await run();
  } finally {
    for (const close of atEnd.splice(0).reverse()) await close().catch(() => undefined);
    await tracing?.shutdown();
  }
}
