// `node --import ./module-log.mjs`: appends the URL of every ES module the process loads to the
// file named by AUTOGRAMS_MODULE_LOG, one per line, so a test can see what a command loaded.
import { register } from "node:module";

register(
  "data:text/javascript," +
    encodeURIComponent(`
  import { appendFileSync } from "node:fs";
  export async function load(url, context, next) {
    if (url.startsWith("file:")) appendFileSync(${JSON.stringify(process.env.AUTOGRAMS_MODULE_LOG)}, url + "\\n");
    return next(url, context);
  }
`),
);
