// What the agent's code prints (`console.log` in a code node) reaches the terminal on stderr, each
// line marked with its level and place in the agent source and dimmed, so that it is never
// mistaken for the agent's reply (stdout). It is the code's debug output, not the conversation.
import type { TraceEvent, TraceSink } from "@autograms/runtime";
import { plainText } from "./plain-text.js";

type LogEvent = Extract<TraceEvent, { kind: "log" }>;

const DIM = "\x1b[2m";
const YELLOW = "\x1b[33m";
const RED = "\x1b[31m";
const RESET = "\x1b[0m";

/** `[log agent.ts:12] text`, one such line per line of text; coloured for a terminal. */
export function logLines(
  e: Pick<LogEvent, "level" | "text" | "node" | "loc">,
  sourceFile: string,
  color: boolean,
): string {
  const where = e.loc ? `${sourceFile}:${e.loc.line}` : e.node;
  const prefix = `[${e.level} ${where}] `;
  // The text is data the code built: it may not steer the terminal.
  const lines = plainText(e.text)
    .split("\n")
    .map((line) => prefix + line);
  if (!color) return `${lines.join("\n")}\n`;
  const tint = e.level === "error" ? RED : e.level === "warn" ? YELLOW : DIM;
  return lines.map((line) => `${tint}${line}${RESET}`).join("\n") + "\n";
}

/** A trace sink that writes the run's `log` events to stderr and ignores the rest. */
export function logPrinter(sourceFile: string): TraceSink {
  const color = process.stderr.isTTY === true && !process.env.NO_COLOR;
  return (event) => {
    if (event.kind === "log") process.stderr.write(logLines(event, sourceFile, color));
  };
}
