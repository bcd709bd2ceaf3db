// A run's performer whose model calls, tool calls and nodes are spans of its turn.
import type { ChatModel } from "../model/types.js";
import type { HostFunction } from "@autograms/sandbox";
import { tracedModel } from "./traced-model.js";
import { tracedTools } from "./traced-tools.js";
import type { TurnSpans } from "./turn.js";

/**
 * The parts of the agent's performer that become spans, named here so that telemetry, below
 * the agent, does not import it.
 */
export interface Instrumented {
  model: ChatModel;
  tools: Record<string, HostFunction>;
  codeTools: Record<string, HostFunction>;
  // A method, so that a hook given more than the node (the frames as well) fits.
  pause?(at: { node: string }): Promise<void> | void;
}

export function instrument<P extends Instrumented>(p: P, spans: TurnSpans, ownTools: ReadonlySet<string>): P {
  const { pause } = p;
  return {
    ...p,
    model: tracedModel(p.model, spans),
    tools: tracedTools(p.tools, ownTools, spans),
    codeTools: tracedTools(p.codeTools, ownTools, spans),
    // Entering a node is a span of its own; the run waits only when the given hook holds it.
    pause: (at: { node: string }) => {
      spans.enter(at.node);
      return pause?.(at);
    },
  };
}
