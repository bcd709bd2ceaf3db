/**
 * How a run of the HTTP API plays and commits its turns through the store's turn runner
 * (`takeTurn`, `TakenTurn.play`): the server's part is the live fan-out alone, the run's events
 * numbered in its LiveRun as the turn is played, the rest of its reply and its end committed with
 * its turn, or its error once it failed.
 */
import type { Agent, Memory, ModelSettings, ReplyChunk } from "@autograms/runtime";
import { StoreError, type Playing, type RunWrite, type takeTurn, type TurnRecord } from "@autograms/store";
import { restOfReply } from "./reply-text.js";
import { clientMessage } from "../http/errors.js";
import type { PlayedResult } from "../workers/protocol.js";
import type { TurnPlayer } from "../workers/turn-player.js";
import type { LiveRun } from "./live-run.js";

/** The reason a run stopped by POST /api/chat/:id/stop is aborted with (its message is kept, interrupted). */
export const BY_CLIENT = new Error("stopped by its client");

interface ServedRunOptions {
  /** The build the run started with: both its turns (an opening, the message's) are played on it. */
  agent: Agent;
  player: TurnPlayer;
  stopping: AbortSignal;
  /** The store, as messages name it (`Store.where`). */
  where: string;
  /** The model settings chosen for the thread, as the run started. */
  modelSettings?: ModelSettings | undefined;
}

/** The thread as `takeTurn` took it for a run (a message id's turn given back takes nothing). */
export type Taken = Exclude<Awaited<ReturnType<typeof takeTurn>>, { repeated: unknown }>;

export class ServedRun implements Playing<PlayedResult> {
  /** Aborted by `RunManager.stop(runId)`: this run alone. */
  readonly stopThis = new AbortController();
  readonly signal: AbortSignal;
  /** The text sent for each node since its last reset, this turn. */
  private shown = new Map<string, string>();
  private taken: Taken | null = null;

  constructor(
    readonly run: LiveRun,
    private readonly options: ServedRunOptions,
  ) {
    this.signal = AbortSignal.any([options.stopping, this.stopThis.signal]);
  }

  /** The run's first event, once the thread is taken for it. */
  begin(messageId: string | null, user: string | null, taken: Taken): void {
    this.taken = taken;
    this.run.push({
      type: "run-start",
      threadId: this.run.threadId,
      runId: this.run.id,
      messageId,
      user,
      turn: taken.turn,
      ...(taken.openingFirst ? { opening: true } : {}),
    });
  }

  async play(text: string | null, memory: Memory | null, signal: AbortSignal): Promise<PlayedResult> {
    const { agent, player, modelSettings } = this.options;
    return player.play({
      agent,
      threadId: this.run.threadId,
      text,
      memory,
      signal,
      steps: this.run.steps,
      ...(modelSettings && { modelSettings }),
      onStep: (step) => this.run.push(step),
      onText: (chunk) => this.onText(chunk),
    });
  }

  /** Commits the turn with the run's events (and its end, when it is the run's `last` turn). */
  async commit(
    result: PlayedResult,
    last: boolean,
    commit: (run?: RunWrite) => Promise<TurnRecord>,
  ): Promise<TurnRecord> {
    // A reply that did not stream (chat_exact, a model that answers whole) is sent once known,
    // so the deltas for its node always add up to it.
    const node = result.replyNode;
    const after = restOfReply(node, this.shown.get(node) ?? "", result.reply);
    const seq = this.taken!.lease.version + 1;
    if (last) after.push({ type: "run-finish", turn: seq, reply: result.reply, done: result.done });
    const turn = await this.run.commitTurn(after, last ? "finished" : undefined, commit);
    this.shown = new Map();
    return turn;
  }

  /** The run's end, for the error it failed with (nothing of its turn was committed). */
  failed(err: unknown): void {
    const { stopping, where } = this.options;
    const stopped = stopping.aborted || this.stopThis.signal.aborted;
    const code = stopped ? "stopped" : err instanceof StoreError ? err.code : (err as { code?: unknown }).code;
    this.run.push({
      type: "run-error",
      code: typeof code === "string" ? code : "internal",
      message: stopping.aborted
        ? "the server stopped before the run finished; nothing was committed"
        : this.stopThis.signal.aborted
          ? this.stopThis.signal.reason === BY_CLIENT
            ? "the run was stopped by its client; its message is kept without a reply"
            : "the run was stopped before it finished; nothing was committed"
          : err instanceof Error
            ? clientMessage(err.message, where)
            : String(err),
    });
  }

  private onText(chunk: ReplyChunk): void {
    if (chunk.kind === "delta") {
      this.shown.set(chunk.node, (this.shown.get(chunk.node) ?? "") + chunk.text);
      this.run.push({ type: "text-delta", node: chunk.node, delta: chunk.text });
    } else {
      this.shown.delete(chunk.node);
      this.run.push({ type: "text-reset", node: chunk.node });
    }
  }
}
