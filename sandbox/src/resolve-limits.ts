import { SandboxError } from "./errors.js";
import { DEFAULT_LIMITS, type SandboxLimits } from "./limits.js";

const LIMIT_NAMES = Object.keys(DEFAULT_LIMITS) as (keyof SandboxLimits)[];

/**
 * Limits already resolved from options that cannot change (frozen): a run gives every evaluation
 * the same options object, so they are checked once per run rather than once per evaluation.
 */
const resolved = new WeakMap<object, Readonly<SandboxLimits>>();

/** The limits of one call: defaults overridden by whatever the options set. */
export function resolveLimits(options: Partial<SandboxLimits> | undefined): Readonly<SandboxLimits> {
  if (options === undefined) return DEFAULT_LIMITS;
  const known = resolved.get(options);
  if (known !== undefined) return known;
  const limits = fromOptions(options);
  if (Object.isFrozen(options)) resolved.set(options, limits);
  return limits;
}

function fromOptions(options: Partial<SandboxLimits>): Readonly<SandboxLimits> {
  let limits: SandboxLimits | undefined;
  for (const name of LIMIT_NAMES) {
    const value = options[name];
    if (value === undefined) continue;
    if (typeof value !== "number" || !(value > 0)) {
      throw new SandboxError("range", `the sandbox limit ${name} must be a positive number`, { limit: name });
    }
    limits ??= { ...DEFAULT_LIMITS };
    limits[name] = value;
  }
  return limits ?? DEFAULT_LIMITS;
}
