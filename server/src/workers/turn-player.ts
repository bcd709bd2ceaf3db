/**
 * Where a server's turns are played: in a pool of worker threads (TurnPool), or in the server's
 * own thread (InProcessPlayer: an agent given as an object, with no worker script to make it).
 * Either way under the same per-turn budgets.
 */
import type { Agent } from "@autograms/runtime";
import { stepWithText, type StepEvent } from "../runs/step-text.js";
import { playTurn, type PlayHooks, type TurnWork } from "./play-turn.js";
import type { PlayedResult, ToWorker } from "./protocol.js";
import { budgetsOf, type TurnBudgets } from "./turn-budget.js";

/** `build`: that of a pool's workers which plays it (`TurnPool.make`). */
export interface PlayRequest
  extends Pick<PlayHooks, "signal" | "wholeSteps" | "modelSettings" | "steps" | "onText">,
    Pick<Extract<ToWorker, { type: "play" }>, "build" | "threadId" | "text" | "memory"> {
  /**
   * The build the run started on, played in the server's own thread (hot reload changes it
   * between runs); a worker thread plays the agent it made.
   */
  agent?: Agent;
  /**
   * A step of the turn, as the run's event, with its JSON text (what the run stores and streams:
   * server/src/runs/step-text.ts): its values above the stream's threshold omitted
   * (bounded-step.ts), and at most the stream's bound of compute steps; with `wholeSteps`, every
   * step as the trace has it (a TraceEvent, a generation's prompt kept).
   */
  onStep(step: StepEvent): void;
}

/** `build`: that of a pool's workers whose agent has the tool (`TurnPool.make`). */
export interface ToolCallRequest extends Pick<Extract<ToWorker, { type: "tool" }>, "build" | "name" | "args"> {
  /** The build served, for a player that calls its tools in this thread (InProcessPlayer). */
  agent?: Agent;
  /** Aborted: the call fails with its reason, and the tool is given it. */
  signal: AbortSignal;
}

export interface TurnPlayer {
  /** Worker threads playing the turns (0: the server's own thread). */
  readonly threads: number;
  /** Worker threads still running (a closed pool's until they have exited). */
  readonly liveThreads: number;
  play(request: PlayRequest): Promise<PlayedResult>;
  /** Calls one of the agent's tools outside any turn (the tool playground), where its turns are played. */
  callTool(request: ToolCallRequest): Promise<unknown>;
  /** Resolves once the turns can be played (worker threads have made their agents); rejects with why they cannot. */
  ready?(): Promise<unknown>;
  /**
   * Why fewer turns than it was made for can be played now (a worker that crashed and is being
   * replaced, or could not be replaced; not one retired and replaced as a matter of course), if
   * so: `/readyz` says it.
   */
  unready?(): string | undefined;
  close(): Promise<void>;
}

export class InProcessPlayer implements TurnPlayer {
  readonly threads = 0;
  readonly liveThreads = 0;
  private readonly budgets: TurnBudgets;

  constructor(
    private readonly agent: Agent,
    budgets?: Partial<TurnBudgets>,
  ) {
    this.budgets = budgetsOf(budgets, "budgets");
  }

  /** `work`: told of the turn's synchronous work as it goes. */
  play(request: PlayRequest, work?: TurnWork): Promise<PlayedResult> {
    return playTurn(request.agent ?? this.agent, request.text, request.memory, {
      ...request,
      ...work,
      onStep: (event, json) => request.onStep(stepWithText(event, json)),
      budgets: this.budgets,
    });
  }

  callTool(request: ToolCallRequest): Promise<unknown> {
    return (request.agent ?? this.agent).callTool(request.name, request.args, request.signal);
  }

  async close(): Promise<void> {}
}
