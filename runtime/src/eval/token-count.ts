/**
 * The tokens a turn's model calls use, for `maxTokens`: what the model reports (`onUsage`), and
 * for a call that reports nothing (an offline or scripted model), an estimate of a token per four
 * characters of the prompt and the answer, marked as estimated.
 */
import type { ChatModel } from "../model/types.js";
import type { TokenUsage } from "../model/types.js";

export class TokenCount {
  total = 0;
  estimated = false;

  /** `model` with every call counted here; what it answers is unchanged. */
  counting(model: ChatModel): ChatModel {
    const count = this;
    return new Proxy(model, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (typeof value !== "function" || !["complete", "choose", "completeWithTools"].includes(prop as string))
          return value;
        return async (req: Record<string, unknown>, ...rest: unknown[]) => {
          let reported = false;
          const listener = req.onUsage as ((u: TokenUsage) => void) | undefined;
          const onUsage = (u: TokenUsage) => {
            reported = true;
            count.total += (u.inputTokens ?? 0) + (u.outputTokens ?? 0);
            listener?.(u);
          };
          const answer = await value.call(target, { ...req, onUsage }, ...rest);
          if (!reported) {
            count.estimated = true;
            count.total += Math.ceil(
              (JSON.stringify(req.messages ?? req.prompt ?? "").length + JSON.stringify(answer).length) / 4,
            );
          }
          return answer;
        };
      },
    });
  }
}
