// A small agent for the store's tests: it greets, then answers every message in a loop. The model
// is deterministic and counts its calls; `gate` holds a reply until the test lets it go.
import { Agent, type ChatModel, type CompletionRequest, type Graph, type GraphNode } from "@autograms/runtime";

export function echoGraph(talk: Partial<GraphNode> = {}): Graph {
  return {
    format: "autograms-graph",
    version: 1,
    agent: "Echo",
    globals: { count: 0 },
    functions: {},
    nodes: [
      { name: "greet", action: "chat_exact", instruction: "Hello! Say something.", transitions: ["talk"] },
      {
        name: "talk",
        action: "chat",
        instruction: "Answer the user.",
        transitions: ["count_up"],
        ...talk,
      } as GraphNode,
      { name: "count_up", action: "code", instruction: "count = count + 1", transitions: ["talk"] } as GraphNode,
    ],
  };
}

/** The user's message, from the `User: ...` line of the chat node's prompt. */
function lastUser(req: CompletionRequest): string {
  const prompt = [...req.messages].reverse().find((m) => m.role === "user")?.content ?? "";
  return /^User: (.*)$/m.exec(prompt)?.[1] ?? "";
}

export class EchoModel implements ChatModel {
  calls = 0;
  /** While set, each reply waits for it to resolve. */
  gate: Promise<void> | null = null;
  /** Resolves when a reply starts (a run is in progress). */
  private started: (() => void)[] = [];

  async complete(req: CompletionRequest): Promise<string> {
    this.calls++;
    for (const s of this.started.splice(0)) s();
    if (this.gate) await this.gate;
    return `echo: ${lastUser(req)}`;
  }

  async choose(): Promise<number> {
    return 0;
  }

  /** A promise that resolves when the next reply starts. */
  nextStart(): Promise<void> {
    return new Promise((r) => this.started.push(r));
  }
}

export function echoAgent(model: ChatModel = new EchoModel(), graph: Graph = echoGraph()): Agent {
  return new Agent(graph, { model });
}

/** A gate the test opens: `hold()` returns the promise to set as `model.gate`, `open()` lets it go. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}
