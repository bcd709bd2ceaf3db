import { writeText } from "./agent-loading/files.js";

/** Writes a result to a file, or to stdout when there is no file or it is "-". */
export function writeOutput(text: string, out: string | undefined, summary?: string): void {
  if (out === undefined || out === "-") {
    process.stdout.write(text);
    return;
  }
  writeText(out, text);
  if (summary !== undefined) process.stdout.write(`${out} (${summary})\n`);
}
