import { table } from "./registry.js";

/**
 * `Date` offers `now()` alone: the time the host gave the evaluation (the runtime's: the turn's),
 * in milliseconds since 1970, the same value for every read. There are no Date objects, whose
 * methods would read the host's time zone and locale.
 */
export const DATE_FUNCTIONS = table("Date.", {
  now: { call: (ctx) => ctx.now() },
});
