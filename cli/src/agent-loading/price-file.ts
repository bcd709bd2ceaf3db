// Reading `serve --prices FILE`: its errors name the file and the line:column (of a JSON mistake,
// or of the model whose price is wrong), as `.mcp.json`'s do.
import { readFileSync } from "node:fs";
import { checkPrices, type Prices } from "@autograms/server";
import { CliError } from "./cli-error.js";
import { jsonFaultAt, lineColumn } from "./json-fault.js";

/** The price table in `path`, checked. */
export function readPrices(path: string): Prices {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new CliError(`--prices ${path}: cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)})`, 2);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const fault = jsonFaultAt(text);
    throw new CliError(`${path}${fault ? `:${fault.line}:${fault.column}: not JSON: ${fault.why}` : ": not JSON"}`, 2);
  }
  try {
    return checkPrices(json, path);
  } catch (err) {
    const message = (err as Error).message;
    // The model named by the error, found by its key in the text.
    const model = /model '([^']*)'/.exec(message)?.[1];
    const key = model === undefined ? -1 : text.indexOf(JSON.stringify(model));
    throw new CliError(key < 0 ? message : message.replace(`${path}: `, `${path}:${lineColumn(text, key)}: `), 2);
  }
}
