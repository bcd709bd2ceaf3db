// A run's performer whose model calls, tool calls and nodes are spans of its turn.
import type { Performer } from "../agent/performer.js";
import { tracedModel } from "./traced-model.js";
import { tracedTools } from "./traced-tools.js";
import type { TurnSpans } from "./turn.js";

export function instrument(p: Performer, spans: TurnSpans, ownTools: ReadonlySet<string>): Performer {
  const { pause } = p;
  return {
    ...p,
    model: tracedModel(p.model, spans),
    tools: tracedTools(p.tools, ownTools, spans),
    codeTools: tracedTools(p.codeTools, ownTools, spans),
    // Entering a node is a span of its own; the run waits only when the given hook holds it.
    pause: (at) => {
      spans.enter(at.node);
      return pause?.(at);
    },
  };
}
