/**
 * Which steps of a turn sent or got something: asked the model, called a tool, ran a hook or
 * printed. The replay of a turn's calls keeps only these (runs/turn-calls.ts), and a run's span
 * tree numbers them the same way, so that a span finds its prompts in that replay.
 */

/** A step that asked the model, called a tool, ran a hook or printed (a stored trace event or a replayed one). */
export function madeCalls(e: { kind: string; decisions?: unknown }): boolean {
  if (e.kind === "generate" || e.kind === "custom" || e.kind === "tool_call" || e.kind === "log") return true;
  return Array.isArray(e.decisions) && e.decisions.length > 0;
}
