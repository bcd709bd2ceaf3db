import { choiceQuestion } from "../choices.js";
import { ModelError } from "../errors.js";
import { AttemptsFailed, retrying, type RetryPolicy } from "../retries.js";
import type {
  ChoiceRequest,
  CompletionRequest,
  ModelSettings,
  ToolCallingModel,
  ToolCompletion,
  ToolCompletionRequest,
} from "../types.js";
import { fromResult, StreamAssembler, type Answer } from "./answer.js";
import { bounded, type Limits } from "./bounds.js";
import { CallAbandoned, retryReason, serverWait, statusOf, toModelError } from "./failures.js";
import type { AiSdkModelOptions } from "./options.js";
import { toPrompt, toTool, toToolChoice } from "./prompt.js";
import { chooseByJson, chooseByText, type ChoiceQuestion, type Generate } from "./choose.js";
import { READ_VERSIONS, type CallOptions as SpecCallOptions, type LanguageModel } from "./spec.js";

type CallOptions = Omit<SpecCallOptions, "abortSignal">;

/** Who asks: the node, the deadline, who hears of the tokens used. */
type Asking = Pick<CompletionRequest, "node" | "signal" | "onUsage">;

const DEFAULT_TIMEOUT = 600_000;
const DEFAULT_IDLE_TIMEOUT = 60_000;
const DEFAULT_MAX_RETRY_AFTER = 60_000;

/**
 * A ChatModel on any language model of the AI SDK's provider specification, v3 or v4
 * (LanguageModelV3: the providers made for ai 6, `@ai-sdk/openai` 3.x, ...; LanguageModelV4: those
 * made for ai 7, `@ai-sdk/openai` 4.x, `@ai-sdk/anthropic` 4.x, ...). It calls the model's doGenerate
 * and doStream itself, so retries, timeouts and deadlines are the runtime's, as OpenAIModel has them.
 */
export class AiSdkModel implements ToolCallingModel {
  /** The model's id as its provider knows it. */
  readonly model: string;
  /** The provider's name ("openai.chat", "anthropic.messages", ...). */
  readonly provider: string;
  private readonly languageModel: LanguageModel;
  private readonly options: AiSdkModelOptions;
  private readonly retryPolicy: RetryPolicy;
  private readonly limits: Limits;
  /** Whether choose() found the provider unable to answer in JSON. */
  private jsonRefused = false;

  constructor(languageModel: LanguageModel, options: AiSdkModelOptions = {}) {
    const spec = (languageModel as { specificationVersion?: unknown } | null)?.specificationVersion;
    if (!READ_VERSIONS.includes(spec as LanguageModel["specificationVersion"])) {
      throw new Error(
        typeof languageModel === "string"
          ? `AiSdkModel: pass a language model object (e.g. anthropic("${languageModel}")), not its name`
          : `AiSdkModel: the model's specification version is ${JSON.stringify(spec)}; AiSdkModel reads "v3" and "v4", the language models of the providers made for ai 6 and ai 7: install a current provider (e.g. npm install @ai-sdk/openai@4, or @ai-sdk/openai@3 on Node 20)`,
      );
    }
    this.languageModel = languageModel;
    this.model = languageModel.modelId;
    this.provider = languageModel.provider;
    this.options = options;
    this.retryPolicy = {
      attempts: (options.maxRetries ?? 2) + 1,
      maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER,
      onRetry: options.onRetry,
      reason: retryReason,
      serverWait,
      status: statusOf,
      aborted: () => new CallAbandoned(),
    };
    const timeoutMs = options.timeout ?? DEFAULT_TIMEOUT;
    this.limits = {
      timeoutMs,
      idleMs: Math.min(options.idleTimeout ?? DEFAULT_IDLE_TIMEOUT, timeoutMs),
      name: `${this.provider} ${this.model}`,
    };
  }

  /**
   * The same language model with another temperature or bound on tokens. Its provider made it for
   * one model id: another model needs another language model object (refused here).
   */
  withSettings(settings: ModelSettings): AiSdkModel {
    if (settings.model !== undefined && settings.model !== this.model)
      throw new Error(
        `the AI SDK model '${this.model}' cannot be switched to '${settings.model}' (its provider made it for one model)`,
      );
    const { model: _, ...sampling } = settings;
    return new AiSdkModel(this.languageModel, { ...this.options, ...sampling });
  }

  async complete(req: CompletionRequest): Promise<string> {
    const call: CallOptions = {
      prompt: toPrompt(req.messages),
      // A provider without JSON answers says so in a warning and answers in text: the prompt asks
      // for the JSON too, and the runtime checks it.
      ...(req.schema && { responseFormat: { type: "json", name: "answer", schema: req.schema } }),
      ...this.sampling(),
    };
    const answer = this.streams(req.onText) ? await this.stream(call, req, req.onText) : await this.generate(call, req);
    if (answer.finishReason === "content_filter" && answer.text === "")
      throw new ModelError(req.node, "answer", "the provider filtered the answer out (content filter)");
    return answer.text;
  }

  async completeWithTools(req: ToolCompletionRequest): Promise<ToolCompletion> {
    const toolChoice = toToolChoice(req.toolChoice);
    const call: CallOptions = {
      prompt: toPrompt(req.messages),
      ...(req.tools.length > 0 && { tools: req.tools.map(toTool) }),
      ...(toolChoice !== undefined && { toolChoice }),
      ...(req.schema && { responseFormat: { type: "json", name: "answer", schema: req.schema } }),
      ...this.sampling(),
    };
    const answer =
      req.stream || this.streams(req.onText)
        ? await this.stream(call, req, req.onText)
        : await this.generate(call, req);
    return { text: answer.text, toolCalls: answer.toolCalls, finishReason: answer.finishReason };
  }

  async choose(req: ChoiceRequest): Promise<number> {
    const asked = choiceQuestion(req);
    if ("index" in asked) return asked.index;
    const { node, labels } = asked;
    const question: ChoiceQuestion = {
      ...asked,
      prompt: [
        { role: "system", content: asked.system },
        { role: "user", content: [{ type: "text", text: asked.user }] },
      ],
    };
    const generate: Generate = (call) => this.generate({ ...call, temperature: 0 }, req);
    const failures: string[] = [];
    if ((this.options.choiceStrategy ?? "json") === "json" && !this.jsonRefused) {
      const outcome = await chooseByJson(generate, question).catch((err: unknown) => {
        // A provider that refuses the request itself does not offer JSON answers; any other failure is the call's.
        if (!(err instanceof ModelError) || (err.status !== 400 && err.status !== 422)) throw err;
        return { failed: err.detail, unsupported: true };
      });
      if ("index" in outcome) return outcome.index;
      if (outcome.unsupported) this.jsonRefused = true;
      failures.push(`json: ${outcome.failed}`);
    }
    const outcome = await chooseByText(generate, question);
    if ("index" in outcome) return outcome.index;
    failures.push(`text: ${outcome.failed}`);
    throw new ModelError(node, "answer", `no valid answer among ${labels.length} choices (${failures.join("; ")})`);
  }

  private streams(onText: ((delta: string) => void) | undefined): boolean {
    return onText !== undefined && this.options.stream !== false;
  }

  private sampling(): Partial<CallOptions> {
    const { temperature, maxTokens, providerOptions, headers } = this.options;
    return {
      ...(temperature !== undefined && { temperature }),
      ...(maxTokens !== undefined && { maxOutputTokens: maxTokens }),
      ...(providerOptions && { providerOptions }),
      ...(headers && { headers }),
    };
  }

  private async generate(call: CallOptions, { node, signal, onUsage }: Asking): Promise<Answer> {
    const answer = await this.guard(node, () =>
      retrying(this.retryPolicy, node, signal, () =>
        bounded(this.limits, signal, async (attempt) => {
          const result = await this.languageModel.doGenerate({ ...call, abortSignal: attempt.signal });
          return fromResult(result, call.responseFormat?.type === "json");
        }),
      ),
    );
    onUsage?.(answer.usage);
    return answer;
  }

  /**
   * Streams the answer and passes its text to `onText` as it arrives. The whole exchange is tried
   * again only while none of its text has gone to `onText`: once some has, the caller may have
   * shown it, and a failure is final.
   */
  private async stream(
    call: CallOptions,
    { node, signal, onUsage }: Asking,
    onText: ((delta: string) => void) | undefined,
  ): Promise<Answer> {
    let passedOn = false;
    const answer = await this.guard(node, () =>
      retrying(
        this.retryPolicy,
        node,
        signal,
        () =>
          bounded(this.limits, signal, async (attempt) => {
            const { stream } = await this.languageModel.doStream({ ...call, abortSignal: attempt.signal });
            attempt.started();
            const reader = stream.getReader();
            const assembler = new StreamAssembler();
            for (let next = await attempt.read(reader); !next.done; next = await attempt.read(reader)) {
              const text = assembler.add(next.value);
              if (text && onText) {
                passedOn = true;
                onText(text);
              }
            }
            return assembler.result();
          }),
        () => passedOn,
      ),
    );
    onUsage?.(answer.usage);
    return answer;
  }

  private async guard<T>(node: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      const attempts = err instanceof AttemptsFailed ? err.attempts : 1;
      throw toModelError(err instanceof AttemptsFailed ? err.last : err, { node, attempts, model: this.limits.name });
    }
  }
}
