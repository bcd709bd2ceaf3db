import OpenAI from "openai";
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import { choiceInstruction, choiceLabels, promptWithChoices } from "../choices.js";
import { ModelError } from "../errors.js";
import type { ChoiceRequest, CompletionRequest, ToolCallingModel, ToolCompletion, ToolCompletionRequest } from "../types.js";
import {
  chooseByJsonSchema, chooseByLogprobs, chooseByText, firstMessage, STRATEGY_PARAMS,
  type ChoiceOutcome, type ChoiceParams, type ChoiceQuestion, type ChoiceStrategy,
} from "./choose.js";
import { isBadRequest, rejectedParam, toModelError, type CallContext, type RequestParam } from "./failures.js";
import { labelTokenIds, resolveConnection, type OpenAIModelOptions } from "./options.js";
import { fromWireMessage, idleGuard, StreamAssembler, StreamStalled, toWireMessages, toWireTool, toWireToolChoice } from "./tools.js";

const STRATEGY_ORDER: Record<NonNullable<OpenAIModelOptions["choiceStrategy"]>, ChoiceStrategy[]> = {
  logprobs: ["logprobs", "text"],
  json_schema: ["json_schema", "text"],
  auto: ["logprobs", "json_schema", "text"],
};

// Sampling settings a model may refuse (reasoning models take no temperature); dropped once refused.
const DROPPABLE: ReadonlySet<RequestParam> = new Set(["temperature", "max_tokens"]);

type RequestBody = Omit<ChatCompletionCreateParamsNonStreaming, "model">;

/**
 * A ChatModel on any OpenAI-compatible Chat Completions server, through the official client, which
 * also does the retries and timeouts.
 */
export class OpenAIModel implements ToolCallingModel {
  readonly model: string;
  private readonly client: OpenAI;
  private readonly options: OpenAIModelOptions;
  private readonly tokenId: (label: string) => number | undefined;
  /** Choice strategies this server turned out not to offer. */
  private readonly unsupported = new Set<ChoiceStrategy>();
  /** Request parameters this server turned out to refuse. */
  private readonly dropped = new Set<RequestParam>();

  constructor(options: OpenAIModelOptions) {
    if (!options.model) throw new Error("OpenAIModel: `model` is required (the model name as the server knows it)");
    this.model = options.model;
    this.options = options;
    this.tokenId = labelTokenIds(options);
    this.client = options.client ?? new OpenAI({
      ...resolveConnection(options),
      ...(options.maxRetries !== undefined && { maxRetries: options.maxRetries }),
      ...(options.timeout !== undefined && { timeout: options.timeout }),
      ...(options.defaultHeaders && { defaultHeaders: options.defaultHeaders }),
      // Failures reach the caller as ModelErrors; the client's own console logging would only repeat them.
      ...(process.env.OPENAI_LOG ? {} : { logLevel: "off" as const }),
    });
  }

  async complete(req: CompletionRequest): Promise<string> {
    const completion = await this.guard(req.node, () => this.send({ messages: req.messages, ...this.sampling() }));
    const { message } = firstMessage(completion, req.node);
    if (message.refusal) throw new ModelError(req.node, "answer", `the model refused: ${message.refusal}`);
    return message.content ?? "";
  }

  async choose(req: ChoiceRequest): Promise<number> {
    const { node, choices } = req;
    if (choices.length === 0) throw new ModelError(node, "answer", "there are no choices to choose from");
    if (choices.length === 1) return 0;
    const labels = choiceLabels(choices.length);
    const question: ChoiceQuestion = {
      node, choices, labels,
      messages: [
        { role: "system", content: choiceInstruction(labels) },
        { role: "user", content: promptWithChoices(req.prompt, choices) },
      ],
    };
    const failures: string[] = [];
    for (const strategy of STRATEGY_ORDER[this.options.choiceStrategy ?? "auto"]) {
      if (this.unsupported.has(strategy)) continue;
      const outcome = await this.tryStrategy(strategy, question);
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
    return this.guard(req.node, async () => {
      if (!req.stream) {
        const choice = firstMessage(await this.send(body), req.node);
        return fromWireMessage(choice.message, choice.finish_reason);
      }
      const stream = await this.client.chat.completions.create({ ...this.body(body), stream: true });
      const assembler = new StreamAssembler();
      const chunks = idleGuard<ChatCompletionChunk>(stream, this.timeout, () => stream.controller.abort());
      for await (const chunk of chunks) {
        const text = assembler.add(chunk);
        if (text) req.onText?.(text);
      }
      return assembler.result();
    });
  }

  private get timeout(): number {
    return this.client.timeout;
  }

  private sampling() {
    const { temperature, maxTokens } = this.options;
    return { ...(temperature !== undefined && { temperature }), ...(maxTokens !== undefined && { max_tokens: maxTokens }) };
  }

  private async tryStrategy(strategy: ChoiceStrategy, q: ChoiceQuestion): Promise<ChoiceOutcome> {
    const send = (params: ChoiceParams) => this.send(params);
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

  /** Sends a request; a sampling setting the server refuses is dropped, then and from then on. */
  private async send(params: RequestBody): Promise<ChatCompletion> {
    const body = this.body(params);
    try {
      return await this.client.chat.completions.create(body);
    } catch (err) {
      const param = rejectedParam(err);
      if (param && DROPPABLE.has(param) && param in body && !this.dropped.has(param)) {
        this.dropped.add(param);
        return this.send(params);
      }
      throw err;
    }
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
    if (err instanceof StreamStalled) return new ModelError(node, "timeout", err.message, undefined, { cause: err });
    const ctx: CallContext = { node, attempts: this.client.maxRetries + 1, timeout: this.timeout, baseURL: this.client.baseURL };
    return toModelError(err, ctx);
  }
}
