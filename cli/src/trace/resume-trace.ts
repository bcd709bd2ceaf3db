import { existsSync, readFileSync, truncateSync } from "node:fs";
import { familyOf } from "@autograms/runtime";
import { CliError } from "../agent-loading/cli-error.js";

/**
 * Readies a resumed conversation's trace for appending, so that one file holds (and replays) the
 * whole conversation. The memory file keeps the last turn that finished; a turn that failed or was
 * interrupted after it left lines in the trace and is run again now, so those lines are cut off.
 */
export function trimToLastTurn(path: string): void {
  if (!existsSync(path)) return;
  const bytes = readFileSync(path);
  let offset = 0;
  let keep = 0;
  for (const line of bytes.toString("utf8").split("\n")) {
    offset += Buffer.byteLength(line) + 1;
    if (endsTurn(line)) keep = Math.min(offset, bytes.length);
  }
  if (keep === 0 && bytes.length > 0) {
    throw new CliError(
      `--trace ${path}: the file holds no finished turn of a conversation, so it is not this one's trace; name another file or delete it`,
    );
  }
  if (keep < bytes.length) truncateSync(path, keep);
}

/** A line whose event ends a turn, as a replay cuts turns: a chat node's reply, or quit. */
function endsTurn(line: string): boolean {
  let event: { kind?: unknown; action?: unknown; base?: unknown; reply?: unknown };
  try {
    event = JSON.parse(line) as typeof event;
  } catch {
    return false;
  }
  if (event === null || typeof event !== "object") return false;
  if (event.kind === "quit") return true;
  if (event.kind === "custom") return typeof event.reply === "string";
  const action = typeof event.base === "string" ? event.base : event.action;
  return (
    (event.kind === "generate" || event.kind === "exact") && typeof action === "string" && familyOf(action) === "chat"
  );
}
