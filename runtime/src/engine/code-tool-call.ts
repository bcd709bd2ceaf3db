import type { JsonValue } from "../graph/types.js";

/** A tool the node's code called, with what it gave back or the message of what it threw. */
export interface CodeToolCall {
  tool: string;
  args: JsonValue[];
  result?: JsonValue;
  error?: string;
}
