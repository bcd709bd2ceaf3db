// A deterministic model for chat clients' tests: it streams, and it sees its request's signal.
import type { ChatModel, CompletionRequest } from "@autograms/runtime";
import { gate } from "../../store/support/agents.js";

/**
 * Answers `echo: <message> #<call>` (so a reply generated again differs), streaming it in two
 * pieces; while `hold` is set it waits after the first piece, until the gate opens or the
 * request's signal aborts (then it records the abort and gives up, as a real client does).
 */
export class StreamingEcho implements ChatModel {
  calls = 0;
  prompts: string[] = [];
  aborted = 0;
  hold: Promise<void> | null = null;
  private started: (() => void)[] = [];

  async complete(req: CompletionRequest): Promise<string> {
    const n = ++this.calls;
    const prompt = req.messages.map((m) => m.content).join("\n");
    this.prompts.push(prompt);
    const user =
      /^User: (.*)$/m.exec([...req.messages].reverse().find((m) => m.role === "user")?.content ?? "")?.[1] ?? "";
    const [first, rest] = ["echo: ", `${user} #${n}`];
    req.onText?.(first);
    for (const s of this.started.splice(0)) s();
    if (this.hold) {
      await new Promise<void>((resolve, reject) => {
        void this.hold!.then(resolve);
        req.signal?.addEventListener(
          "abort",
          () => {
            this.aborted++;
            reject(req.signal!.reason);
          },
          { once: true },
        );
      });
    }
    req.onText?.(rest);
    return first + rest;
  }

  async choose(): Promise<number> {
    return 0;
  }

  nextStart(): Promise<void> {
    return new Promise((r) => this.started.push(r));
  }

  /** Holds the next replies after their first piece until `open()`; `started` resolves when one is held. */
  holdNext(): { started: Promise<void>; open: () => void } {
    const g = gate();
    this.hold = g.promise;
    const started = this.nextStart();
    return {
      started,
      open: () => {
        this.hold = null;
        g.open();
      },
    };
  }
}
