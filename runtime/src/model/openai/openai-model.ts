import OpenAI, { APIUserAbortError } from "openai";
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsNonStreaming,
} from "openai/resources/chat/completions";
import { choiceQuestion } from "../choices.js";
import { ModelError } from "../errors.js";
import type {
  ChoiceRequest,
  CompletionRequest,
  JsonSchema,
  ModelSettings,
  ToolCallingModel,
  ToolCompletion,
  ToolCompletionRequest,
  UsageListener,
} from "../types.js";
import {
  chooseByJsonSchema,
  chooseByLogprobs,
  chooseByText,
  firstMessage,
  STRATEGY_PARAMS,
  type ChoiceOutcome,
  type ChoiceParams,
  type ChoiceQuestion,
  type ChoiceStrategy,
} from "./choose.js";
import { isBadRequest, rejectedParam, toModelError, type CallContext, type RequestParam } from "./failures.js";
import { guardedFetch, type Fetch } from "./guarded-fetch.js";
import { labelTokenIds, resolveConnection, type OpenAIModelOptions } from "./options.js";
import { AttemptsFailed, retrying, type RetryPolicy } from "../retries.js";
import { aborted, retryReason, serverWait, statusOf } from "./retry.js";
import { fromWireMessage, StreamAssembler, toWireMessages, toWireTool, toWireToolChoice, usageOf } from "./tools.js";

const STRATEGY_ORDER: Record<NonNullable<OpenAIModelOptions["choiceStrategy"]>, ChoiceStrategy[]> = {
  logprobs: ["logprobs", "text"],
  json_schema: ["json_schema", "text"],
  auto: ["logprobs", "json_schema", "text"],
};

// Settings a server may refuse (reasoning models take no temperature; some OpenAI-compatible
// servers know no `stream_options`); dropped once refused.
const DROPPABLE: ReadonlySet<RequestParam> = new Set(["temperature", "max_tokens", "stream_options"]);

// Asks a stream to end with a chunk that reports the call's tokens, as a plain answer does.
const STREAM_USAGE = { stream_options: { include_usage: true } } as const;

type RequestBody = Omit<ChatCompletionCreateParamsNonStreaming, "model">;

const DEFAULT_IDLE_TIMEOUT = 60_000;
const MAX_SIBLINGS = 32;
const DEFAULT_MAX_RETRY_AFTER = 60_000;
/** 48 bytes a minute: a body dripping a byte every 2 s fails within the minute; a stream's keep-alive comments every 15 s pass. */
const DEFAULT_LOW_SPEED = { bytes: 48, windowMs: 60_000 };

/**
 * A ChatModel on any OpenAI-compatible Chat Completions server, through the official client. The
 * retries are its own (retry.ts), and so are the timeouts of the answer's body (guarded-fetch.ts).
 */
export class OpenAIModel implements ToolCallingModel {
  readonly model: string;
  readonly provider = "openai";
  private readonly client: OpenAI;
  private readonly options: OpenAIModelOptions;
  private readonly tokenId: (label: string) => number | undefined;
  /** Choice strategies this server turned out not to offer. */
  private readonly unsupported = new Set<ChoiceStrategy>();
  /** Request parameters this server turned out to refuse. */
  private readonly dropped = new Set<RequestParam>();
  /** Whether the server may be asked for answers in a JSON Schema (until it refuses one). */
  private jsonAnswers = true;
  private readonly retryPolicy: RetryPolicy;
  /** The client as made or given, before this model wrapped its fetch: what its siblings share. */
  private readonly shared: OpenAI;
  /** The same model with other settings (`withSettings`), kept so that what each server refused stays learnt. */
  private readonly siblings = new Map<string, OpenAIModel>();

  constructor(options: OpenAIModelOptions) {
    if (!options.model) throw new Error("OpenAIModel: `model` is required (the model name as the server knows it)");
    this.model = options.model;
    this.options = options;
    this.tokenId = labelTokenIds(options);
    const client =
      options.client ??
      new OpenAI({
        ...resolveConnection(options),
        ...(options.timeout !== undefined && { timeout: options.timeout }),
        ...(options.defaultHeaders && { defaultHeaders: options.defaultHeaders }),
        // Failures reach the caller as ModelErrors; the client's own console logging would only repeat them.
        ...(process.env.OPENAI_LOG ? {} : { logLevel: "off" as const }),
      });
    this.shared = client;
    const maxRetries = options.maxRetries ?? (options.client ? options.client.maxRetries : 2);
    this.retryPolicy = {
      attempts: maxRetries + 1,
      maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER,
      onRetry: options.onRetry,
      reason: retryReason,
      serverWait,
      status: statusOf,
      aborted,
    };
    const idleMs = Math.min(options.idleTimeout ?? DEFAULT_IDLE_TIMEOUT, client.timeout);
    const inner: Fetch = (client as unknown as { fetch: Fetch }).fetch ?? fetch;
    const lowSpeed = { ...DEFAULT_LOW_SPEED, ...options.lowSpeed };
    this.client = client.withOptions({
      maxRetries: 0,
      fetch: guardedFetch(inner, { idleMs, totalMs: client.timeout, lowSpeed }),
    });
  }

  /** The same server and client with another model, temperature or bound on tokens (a run's `modelSettings`). */
  withSettings(settings: ModelSettings): OpenAIModel {
    const key = JSON.stringify([settings.model, settings.temperature, settings.maxTokens]);
    let sibling = this.siblings.get(key);
    if (!sibling) {
      sibling = new OpenAIModel({
        ...this.options,
        ...settings,
        client: this.shared,
        maxRetries: this.retryPolicy.attempts - 1,
      });
      // A thread's page may try many settings: the oldest sibling goes first.
      if (this.siblings.size >= MAX_SIBLINGS) this.siblings.delete(this.siblings.keys().next().value!);
      this.siblings.set(key, sibling);
    }
    return sibling;
  }

  /** The models the server lists (`GET /models`), by name, in its order. */
  async listModels(signal?: AbortSignal): Promise<string[]> {
    const names: string[] = [];
    try {
      for await (const m of this.shared.models.list({ signal })) names.push(m.id);
    } catch (err) {
      throw this.failure("(models)", err);
    }
    return names;
  }

  async complete(req: CompletionRequest): Promise<string> {
    if (this.options.stream && req.onText) {
      const answer = await this.guard(req.node, () =>
        this.structured(req.schema, this.plain(req), (body) => this.stream(body, req, req.onText)),
      );
      if (answer.refusal) throw new ModelError(req.node, "answer", `the model refused: ${answer.refusal}`);
      return answer.result().text;
    }
    const completion = await this.guard(req.node, () =>
      this.structured(req.schema, this.plain(req), (body) => this.send(body, req.node, req.signal, req.onUsage)),
    );
    const { message } = firstMessage(completion, req.node);
    if (message.refusal) throw new ModelError(req.node, "answer", `the model refused: ${message.refusal}`);
    return message.content ?? "";
  }

  async choose(req: ChoiceRequest): Promise<number> {
    const asked = choiceQuestion(req);
    if ("index" in asked) return asked.index;
    const { node, labels } = asked;
    const question: ChoiceQuestion = {
      ...asked,
      messages: [
        { role: "system", content: asked.system },
        { role: "user", content: asked.user },
      ],
    };
    const failures: string[] = [];
    for (const strategy of STRATEGY_ORDER[this.options.choiceStrategy ?? "auto"]) {
      if (this.unsupported.has(strategy)) continue;
      const outcome = await this.tryStrategy(strategy, question, req.signal, req.onUsage);
      if ("index" in outcome) return outcome.index;
      if (outcome.unsupported) this.unsupported.add(strategy);
      failures.push(`${strategy}: ${outcome.failed}`);
    }
    throw new ModelError(node, "answer", `no valid answer among ${labels.length} choices (${failures.join("; ")})`);
  }

  async completeWithTools(req: ToolCompletionRequest): Promise<ToolCompletion> {
    const toolChoice = toWireToolChoice(req.toolChoice);
    const body: RequestBody = {
      messages: toWireMessages(req.messages),
      ...(req.tools.length > 0 && { tools: req.tools.map(toWireTool) }),
      ...(toolChoice !== undefined && { tool_choice: toolChoice }),
      ...this.sampling(),
    };
    // A thought's schema goes with the tools: the answer that calls no tool is the JSON.
    if (req.stream || (this.options.stream && req.onText)) {
      return this.guard(req.node, async () =>
        (await this.structured(req.schema, body, (b) => this.stream(b, req, req.onText))).result(),
      );
    }
    return this.guard(req.node, async () => {
      const sent = await this.structured(req.schema, body, (b) => this.send(b, req.node, req.signal, req.onUsage));
      const choice = firstMessage(sent, req.node);
      return fromWireMessage(choice.message, choice.finish_reason);
    });
  }

  /**
   * Runs a completion, with a thought's schema as a JSON Schema response format when it has one. A
   * server that refuses response formats is not asked for one again: the prompt asks for the JSON
   * too, and the runtime checks the answer (engine/structured-answer.ts).
   */
  private async structured<T>(
    schema: JsonSchema | undefined,
    plain: RequestBody,
    run: (body: RequestBody) => Promise<T>,
  ): Promise<T> {
    if (!schema || !this.jsonAnswers) return run(plain);
    const json_schema = { name: "answer", schema, strict: false };
    try {
      return await run({ ...plain, response_format: { type: "json_schema", json_schema } });
    } catch (err) {
      if (rejectedParam(err instanceof AttemptsFailed ? err.last : err) !== "response_format") throw err;
      this.jsonAnswers = false;
      return run(plain);
    }
  }

  private plain(req: CompletionRequest): RequestBody {
    return { messages: req.messages, ...this.sampling() };
  }

  private get timeout(): number {
    return this.client.timeout;
  }

  private sampling() {
    const { temperature, maxTokens } = this.options;
    return {
      ...(temperature !== undefined && { temperature }),
      ...(maxTokens !== undefined && { max_tokens: maxTokens }),
    };
  }

  private async tryStrategy(
    strategy: ChoiceStrategy,
    q: ChoiceQuestion,
    signal: AbortSignal | undefined,
    onUsage: UsageListener | undefined,
  ): Promise<ChoiceOutcome> {
    const send = (params: ChoiceParams) => this.send(params, q.node, signal, onUsage);
    try {
      if (strategy === "logprobs") return await chooseByLogprobs(send, q, this.tokenId);
      if (strategy === "json_schema") return await chooseByJsonSchema(send, q);
      return await chooseByText(send, q);
    } catch (err) {
      // A refused request is the server not offering the strategy; the last strategy has no fallback.
      if (strategy === "text" || !isBadRequest(err)) throw this.failure(q.node, err);
      const param = rejectedParam(err);
      const unsupported = param !== undefined && STRATEGY_PARAMS[strategy].includes(param);
      return { failed: this.failure(q.node, err).detail, unsupported };
    }
  }

  /** Sends a request, retried; a sampling setting the server refuses is dropped, then and from then on. */
  private async send(
    params: RequestBody,
    node: string,
    signal: AbortSignal | undefined,
    onUsage: UsageListener | undefined,
  ): Promise<ChatCompletion> {
    const completion = await this.dropping(params, (body) =>
      this.retrying(node, signal, () => this.client.chat.completions.create(body, { signal })),
    );
    const usage = (completion as Partial<ChatCompletion> | null)?.usage;
    if (usage && onUsage) onUsage(usageOf(usage));
    return completion;
  }

  /**
   * Sends a request for a stream and passes its text to `onText` as it arrives. The whole exchange
   * is tried again (for the reasons `send` retries) only while none of its text has gone to
   * `onText`: once some has, the caller may have shown it, and a failure is final.
   */
  private stream(
    params: RequestBody,
    { node, signal, onUsage }: Pick<CompletionRequest, "node" | "signal" | "onUsage">,
    onText: ((delta: string) => void) | undefined,
  ): Promise<StreamAssembler> {
    let passedOn = false;
    return this.dropping({ ...params, ...STREAM_USAGE }, (body) =>
      this.retrying(
        node,
        signal,
        async () => {
          const stream = await this.client.chat.completions.create({ ...body, stream: true }, { signal });
          const assembler = new StreamAssembler();
          for await (const chunk of stream as AsyncIterable<ChatCompletionChunk>) {
            const text = assembler.add(chunk);
            if (text && onText) {
              passedOn = true;
              onText(text);
            }
          }
          // The client ends an aborted stream as if it were complete: the answer would be cut short.
          if (signal?.aborted) throw new APIUserAbortError();
          if (assembler.usage && onUsage) onUsage(assembler.usage);
          return assembler;
        },
        () => passedOn,
      ),
    );
  }

  /** Runs `run` on the request's body; a sampling setting the server refuses is dropped, then and from then on. */
  private async dropping<T>(
    params: RequestBody,
    run: (body: RequestBody & { model: string }) => Promise<T>,
  ): Promise<T> {
    const body = this.body(params);
    try {
      return await run(body);
    } catch (err) {
      const param = rejectedParam(err);
      if (param && DROPPABLE.has(param) && param in body && !this.dropped.has(param)) {
        this.dropped.add(param);
        return this.dropping(params, run);
      }
      throw err;
    }
  }

  private retrying<T>(
    node: string,
    signal: AbortSignal | undefined,
    attempt: () => Promise<T>,
    final?: () => boolean,
  ): Promise<T> {
    return retrying(this.retryPolicy, node, signal, attempt, final);
  }

  private body<T extends RequestBody>(params: T): T & { model: string } {
    const body: Record<string, unknown> = { ...this.options.extraBody, ...params, model: this.model };
    for (const param of this.dropped) delete body[param];
    return body as T & { model: string };
  }

  private async guard<T>(node: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      throw this.failure(node, err);
    }
  }

  private failure(node: string, err: unknown): ModelError {
    const attempts = err instanceof AttemptsFailed ? err.attempts : 1;
    const ctx: CallContext = { node, attempts, timeout: this.timeout, baseURL: this.client.baseURL };
    return toModelError(err instanceof AttemptsFailed ? err.last : err, ctx);
  }
}
