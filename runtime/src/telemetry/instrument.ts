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
    pause: async (at) => {
      spans.enter(at.node);
      if (pause) await pause(at);
    },
  };
}
