import type { FunctionInfo } from "./types.js";

/**
 * Why `args` arguments do not fit the function, or null when they do: more than its parameters,
 * or fewer than those without a default (`required`, absent: all).
 */
export function argumentCountProblem(name: string, info: FunctionInfo, args: number): string | null {
  const { params } = info;
  const required = info.required ?? params.length;
  if (args >= required && args <= params.length) return null;
  const takes = required === params.length ? `${params.length}` : `${required} to ${params.length}`;
  const listed = params.length ? ` (${params.map((p, i) => (i < required ? p : `${p}?`)).join(", ")})` : "";
  const missing =
    args < required
      ? `: missing ${params
          .slice(args, required)
          .map((p) => `'${p}'`)
          .join(", ")}`
      : "";
  return `'${name}' takes ${takes} argument${params.length === 1 ? "" : "s"}${listed}, got ${args}${missing}`;
}
