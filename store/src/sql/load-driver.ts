import { createRequire } from "node:module";
import { StoreError } from "../errors.js";

const require = createRequire(import.meta.url);

/**
 * Loads a database driver the store declares but a project may not have installed (the CLI keeps
 * them as optional peer dependencies): its absence is a one-line error that says what to install,
 * where Node's own would show a require stack.
 */
export function loadDriver<T>(name: string, version: string, store: string): T {
  try {
    return require(name) as T;
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === "MODULE_NOT_FOUND" && err.message.includes(`'${name}'`)) {
      throw new StoreError(
        "unavailable",
        `the ${store} store needs the ${name} package, which is not installed: npm install ${name}@${version}`,
      );
    }
    throw e;
  }
}
