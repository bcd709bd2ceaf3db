// A turn as OpenTelemetry spans: `invoke_agent {agent}` for the turn, a span for each node it
// runs, and under the node, `chat {model}` for each model call and `execute_tool {tool}` for each
// tool call. With no SDK registered, the first span is a no-op that says it records nothing, and
// the turn runs as it would without tracing.
import type { Attributes, Context, Span, Tracer } from "@opentelemetry/api";
import type { Graph } from "@autograms/graph";
import { ATTR, OPERATION } from "./conventions.js";
import { otelApi, type OtelApi } from "./otel-api.js";

const TRACER = "@autograms/runtime";

export interface TurnInfo {
  graph: Graph;
  /** A reply() turn, or a call() of this function. */
  function?: string;
  conversationId?: string;
}

/** Starts and ends the spans below a turn's. */
export class TurnSpans {
  private node: Span | undefined;

  constructor(
    readonly api: OtelApi,
    private readonly tracer: Tracer,
    private readonly graph: Graph,
    private readonly turn: Span,
  ) {}

  /** The run enters `name`: the previous node's span ends, this one's starts. */
  enter(name: string): void {
    this.node?.end();
    const node = this.graph.nodes.find((n) => n.name === name);
    const loc = node?.loc;
    this.node = this.tracer.startSpan(
      `node ${name}`,
      {
        attributes: {
          [ATTR.node]: name,
          ...(node && { [ATTR.action]: node.action }),
          ...(loc && { [ATTR.line]: loc.line, [ATTR.column]: loc.column }),
          ...(this.graph.source && { [ATTR.file]: this.graph.source.file }),
        },
      },
      this.inTurn(),
    );
  }

  /** A span under the current node (or the turn), current while `run` runs; failures are its status. */
  async child<T>(
    name: string,
    attributes: Attributes,
    run: (span: Span) => Promise<T>,
    kind = this.api.SpanKind.INTERNAL,
  ): Promise<T> {
    const { api } = this;
    const parent = api.trace.setSpan(api.context.active(), this.node ?? this.turn);
    const span = this.tracer.startSpan(name, { kind, attributes }, parent);
    try {
      return await api.context.with(api.trace.setSpan(parent, span), () => run(span));
    } catch (err) {
      failed(api, span, err);
      throw err;
    } finally {
      span.end();
    }
  }

  /** Runs the turn with its span current; its end, or its failure, ends every span. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await this.api.context.with(this.inTurn(), work);
    } catch (err) {
      if (this.node) failed(this.api, this.node, err);
      failed(this.api, this.turn, err);
      throw err;
    } finally {
      this.node?.end();
      this.turn.end();
    }
  }

  private inTurn(): Context {
    return this.api.trace.setSpan(this.api.context.active(), this.turn);
  }
}

function failed(api: OtelApi, span: Span, err: unknown): void {
  const error = err instanceof Error ? err : new Error(String(err));
  span.recordException(error);
  span.setStatus({ code: api.SpanStatusCode.ERROR, message: error.message });
  // An AgentError's or a ModelError's kind says more than its class.
  const code =
    (error as Error & { code?: unknown; failure?: unknown }).code ?? (error as { failure?: unknown }).failure;
  span.setAttribute(ATTR.errorType, typeof code === "string" ? code : error.name);
}

/** The spans of a turn, or undefined when nothing would record them (no API, no SDK, not sampled). */
export function startTurn(info: TurnInfo): TurnSpans | undefined {
  const api = otelApi();
  if (!api) return undefined;
  const tracer = api.trace.getTracer(TRACER);
  const agent = info.graph.agent;
  const turn = tracer.startSpan(`${OPERATION.agent} ${agent}`, {
    attributes: {
      [ATTR.operation]: OPERATION.agent,
      [ATTR.agentName]: agent,
      ...(info.conversationId !== undefined && { [ATTR.conversation]: info.conversationId }),
      ...(info.function !== undefined && { [ATTR.function]: info.function }),
      ...(info.graph.source && { [ATTR.file]: info.graph.source.file }),
    },
  });
  if (!turn.isRecording()) {
    turn.end();
    return undefined;
  }
  return new TurnSpans(api, tracer, info.graph, turn);
}
