// Tools whose calls are `execute_tool {tool}` spans of the node that calls them: the model's
// native calls and the calls in agent code alike.
import type { HostFunction } from "@autograms/sandbox";
import { ATTR, OPERATION } from "./conventions.js";
import type { TurnSpans } from "./turn.js";

/** `own`: the runtime's own functions (tryTool, ...), which are no tools of the agent's and stay as they are. */
export function tracedTools(
  tools: Record<string, HostFunction>,
  own: ReadonlySet<string>,
  spans: TurnSpans,
): Record<string, HostFunction> {
  return Object.fromEntries(
    Object.entries(tools).map(([name, fn]): [string, HostFunction] => [
      name,
      own.has(name)
        ? fn
        : (...args) =>
            spans.child(
              `${OPERATION.tool} ${name}`,
              { [ATTR.operation]: OPERATION.tool, [ATTR.toolName]: name, [ATTR.toolType]: "function" },
              async () => fn(...args),
            ),
    ]),
  );
}
