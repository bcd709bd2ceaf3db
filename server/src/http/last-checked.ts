/**
 * A conversation's messages as a chat route reads them: the last one checked (the turn) and the
 * others only counted, not read. Chat clients (the AI SDK's useChat, AG-UI's) send the whole
 * conversation every time, which the server does not use (the thread's history is the store's);
 * checking and copying it made a message cost more the longer its thread.
 */
import { z } from "zod";

/** What checks one message: a zod schema, ours or another package's copy of zod. */
interface ItemSchema {
  safeParse(value: unknown): { error?: { issues: readonly { message: string; path: readonly PropertyKey[] }[] } };
}

/**
 * An array whose last item `item` checks, its issues worded as `item` words them and placed at
 * that item; a value that is not an array is zod's own issue.
 */
export function lastChecked(item: ItemSchema) {
  return z.custom<readonly unknown[]>().check((ctx) => {
    if (!Array.isArray(ctx.value)) {
      ctx.issues.push({ code: "invalid_type", expected: "array", input: ctx.value });
      return;
    }
    const at = ctx.value.length - 1;
    if (at < 0) return;
    for (const { message, path } of item.safeParse(ctx.value[at]).error?.issues ?? [])
      ctx.issues.push({ code: "custom", message, path: [at, ...path], input: ctx.value[at] });
  });
}
