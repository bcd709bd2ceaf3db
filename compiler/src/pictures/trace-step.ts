/**
 * What the HTML picture reads of a recorded run: the runtime's trace events (`TraceEvent` of
 * @autograms/runtime) have these fields and more. The compiler stands beside the runtime, not above
 * it, so it names only what it draws; a runtime trace is given as it is (the CLI's graph page
 * does), and the type check of that call says when the runtime adds a kind of event the picture
 * does not know.
 */
import type { Action, BaseAction, JsonValue } from "@autograms/graph";

interface Step {
  node: string;
  action: Action | (string & {});
  base?: BaseAction;
}

export type TraceStep =
  | (Step & { kind: "user"; text: string })
  | (Step & { kind: "generate" | "exact"; output: JsonValue })
  | (Step & { kind: "code"; code: string; value: JsonValue })
  | (Step & { kind: "call"; function: string; args: JsonValue[] })
  | (Step & { kind: "transition"; to: string })
  | (Step & { kind: "return" | "quit" })
  | (Step & {
      kind: "custom";
      hook: "instruction" | "transition" | "output";
      reply?: string;
      thought?: string;
      output?: JsonValue;
      target?: string | null;
    })
  | (Step & { kind: "tool_call"; tool: string; arguments: string; result?: JsonValue; error?: string })
  /** Drawn as a visit of the node, by its action. */
  | (Step & { kind: "setup" | "log" | "time" | "prompt" | "pass" | "skip_call" });
