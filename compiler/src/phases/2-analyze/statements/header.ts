import type TS from "typescript";
import type { FunctionContext } from "../context.js";

/** Text of a compound statement up to its body: what its automatic names are hashed from. */
export function headerKey(ctx: FunctionContext, node: TS.Node, body: TS.Node): string {
  const file = ctx.agent.file;
  return file.text.slice(node.getStart(file), body.getStart(file)).replace(/\s+/g, " ").trim();
}
