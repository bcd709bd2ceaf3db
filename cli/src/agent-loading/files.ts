import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  writeFileSync,
  type Stats,
} from "node:fs";
import { dirname } from "node:path";
import { CliError } from "./cli-error.js";

/** Why reading or writing a file failed, in words rather than an errno. */
export function fileProblem(err: unknown, doing: "read" | "write"): string {
  switch ((err as NodeJS.ErrnoException).code) {
    case "ENOENT":
      return doing === "read" ? "no such file" : "it cannot be created there";
    case "EISDIR":
      return "it is a directory";
    case "ENOTDIR":
      return "a part of its path is a file, not a directory";
    case "EEXIST":
      return "it is a file, not a directory";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    default:
      return err instanceof Error ? err.message : String(err);
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
    throw new CliError(
      `cannot write ${what}'${file}': its folder '${dirname(file)}' cannot be made: ${fileProblem(err, "write")}`,
    );
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

/**
 * Why text is not JSON, without quoting it: V8's messages quote the text near the fault
 * (`Unexpected token 'r', "root:x:0:0"... is not valid JSON`), and the file may be one that should
 * not be shown. Its position is kept where the message has one.
 */
export function jsonFault(err: unknown): string {
  const at = /\bat position (\d+)/.exec(err instanceof Error ? err.message : "");
  return at ? `it is not valid JSON (at character ${Number(at[1]) + 1})` : "it is not valid JSON";
}

/**
 * A regular file's text, read no further than `maxBytes`; null when there is no such file. A file
 * that is not a regular file (a device such as /dev/zero, a directory, a named pipe) or is larger
 * is refused through `refuse`, with the reason in words. It is opened without blocking: a named
 * pipe would wait for a writer.
 */
export function readRegularFile(
  path: string,
  maxBytes: number,
  refuse: (why: string) => Error,
  what = "such a file",
): string | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw refuse(fileProblem(err, "read"));
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new RefusedFile(refuse(`it is not a regular file but ${kindOf(stats)}`));
    const tooBig = () => new RefusedFile(refuse(`it is over ${maxBytes / 1024 / 1024} MiB, the limit for ${what}`));
    if (stats.size > maxBytes) throw tooBig();
    // One byte more than the limit tells a file that grew since fstat from one that fits.
    const buffer = Buffer.alloc(Math.min(stats.size, maxBytes) + 1);
    let length = 0;
    for (let n; length < buffer.length && (n = readSync(fd, buffer, length, buffer.length - length, null)) > 0; )
      length += n;
    if (length > maxBytes) throw tooBig();
    return buffer.toString("utf8", 0, length);
  } catch (err) {
    if (err instanceof RefusedFile) throw err.error;
    throw refuse(fileProblem(err, "read"));
  } finally {
    closeSync(fd);
  }
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isFIFO()) return "a named pipe";
  if (stats.isSocket()) return "a socket";
  return "a special file";
}

/** A refusal on its way out of readRegularFile's own try. */
class RefusedFile {
  constructor(readonly error: Error) {}
}
