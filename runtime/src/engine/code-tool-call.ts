import type { JsonValue } from "@autograms/graph";

/** A tool the node's code called, with what it gave back or the message of what it threw. */
export interface CodeToolCall {
  tool: string;
  args: JsonValue[];
  result?: JsonValue;
  error?: string;
}
