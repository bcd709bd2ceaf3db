// The questions a starter asks at a terminal, for the extras its flags did not settle.
import { createInterface } from "node:readline/promises";
import type { Extras } from "./extras.js";

const QUESTIONS: Record<keyof Extras, string> = {
  store: "Keep conversations in a store (SQLite: chat --store, serve)? [y/N] ",
  mcp: "Use tools of MCP servers (adds the MCP SDK)? [y/N] ",
};

/**
 * The extras: those the flags give, and the others asked on a terminal (not asked otherwise: a
 * script gets none it did not ask for).
 */
export async function askExtras(
  given: Extras,
  io: { input: NodeJS.ReadableStream & { isTTY?: boolean }; output: NodeJS.WritableStream & { isTTY?: boolean } },
): Promise<Extras> {
  const open = (Object.keys(QUESTIONS) as (keyof Extras)[]).filter((k) => given[k] === undefined);
  if (open.length === 0 || !io.input.isTTY || !io.output.isTTY) return given;
  const rl = createInterface({ input: io.input, output: io.output });
  const extras = { ...given };
  try {
    for (const k of open) extras[k] = /^y(es)?$/i.test((await rl.question(QUESTIONS[k])).trim());
  } finally {
    rl.close();
  }
  return extras;
}
