import { createRequire } from "node:module";
import type TS from "typescript";
import { requireWithCodeCache } from "./code-cache.js";

let loaded: typeof TS | undefined;

/**
 * The TypeScript parser, loaded on first use: it is most of a cold `autograms compile`, and
 * commands that never compile (or importers of this package that only format diagnostics)
 * should not pay for it.
 */
export function typescript(): typeof TS {
  loaded ??= (requireWithCodeCache("typescript", import.meta.url) ??
    createRequire(import.meta.url)("typescript")) as typeof TS;
  return loaded;
}
