import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { CliError } from "./cli-error.js";

/** Why reading or writing a file failed, in words rather than an errno. */
export function fileProblem(err: unknown, doing: "read" | "write"): string {
  switch ((err as NodeJS.ErrnoException).code) {
    case "ENOENT": return doing === "read" ? "no such file" : "it cannot be created there";
    case "EISDIR": return "it is a directory";
    case "ENOTDIR": return "a part of its path is a file, not a directory";
    case "EEXIST": return "it is a file, not a directory";
    case "EACCES": case "EPERM": return "permission denied";
    default: return err instanceof Error ? err.message : String(err);
  }
}

/** A file's text; `what` names it in the error ("the trace "). */
export function readText(file: string, what = ""): string {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    throw new CliError(`cannot read ${what}'${file}': ${fileProblem(err, "read")}`);
  }
}

/** Writes a file, making its folder if need be; `what` names it in the error. */
export function writeText(file: string, text: string, what = ""): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
  } catch (err) {
    throw new CliError(`cannot write ${what}'${file}': its folder '${dirname(file)}' cannot be made: ${fileProblem(err, "write")}`);
  }
  try {
    writeFileSync(file, text);
  } catch (err) {
    throw new CliError(`cannot write ${what}'${file}': ${fileProblem(err, "write")}`);
  }
}

/** Makes a folder the command writes into; `what` names it in the error ("the transcripts' folder "). */
export function makeFolder(dir: string, what = ""): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new CliError(`cannot write into ${what}'${dir}': ${fileProblem(err, "write")}`);
  }
}
