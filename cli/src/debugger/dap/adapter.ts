// The Debug Adapter Protocol face of a debug session: VS Code (or any DAP client) sets
// breakpoints on lines of the agent's .ts file, and sees the function stack as frames, the memory
// scopes as variables, and steps node by node. One thread: the conversation.
import { createHash, timingSafeEqual } from "node:crypto";
import { resolve } from "node:path";
import {
  Breakpoint,
  ContinuedEvent,
  DebugSession as ProtocolSession,
  ExitedEvent,
  Handles,
  InitializedEvent,
  OutputEvent,
  Response,
  Scope,
  Source,
  StackFrame,
  StoppedEvent,
  TerminatedEvent,
  Thread,
  Variable,
} from "@vscode/debugadapter";
import type { DebugProtocol } from "@vscode/debugprotocol";
import {
  formatAgentError,
  type DebugSession,
  type JsonValue,
  type SessionEvent,
  type StepMode,
} from "@autograms/runtime";
import { valueText, type SourceLines } from "../present.js";

const THREAD = 1;

/** What `launch` accepts (the `launch.json` configuration, docs/debugging.md). */
export interface LaunchArguments extends DebugProtocol.LaunchRequestArguments {
  /** The secret `autograms dap --port` printed when it started (not needed on stdio). */
  secret?: string;
  /** The agent (.ts) or its graph (.json). */
  program: string;
  /** A trace file to replay instead of asking a model. */
  replay?: string;
  /** Which conversation of the trace, from 1. */
  conversation?: number;
  offline?: boolean;
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  /** The MCP servers the agent imports tools from (default: the .mcp.json beside it). */
  mcpConfig?: string;
  /** The user's messages, sent in order whenever the conversation waits; after them, type in the Debug Console. */
  userInputs?: string[];
  stopOnEntry?: boolean;
  /** Where relative paths start (default: the adapter's working directory). */
  cwd?: string;
}

type Handle = { kind: "scope"; frame: number; scope: number } | { kind: "value"; value: JsonValue };

/** Opens the session a launch asks for; the command line's loader by default, replaced in tests. */
export type Opener = (args: LaunchArguments) => Promise<{
  session: DebugSession;
  source: SourceLines;
  sourcePath: string | null;
  /** Lets go of what the session holds (its MCP servers), once it is over. */
  close?: () => Promise<void>;
}>;

export interface AdapterOptions {
  /** Required in the launch configuration before anything is loaded (a server on a socket). */
  secret?: string;
  /** Runs an evaluate request's code out of this process (a sandbox pool), so no expression can end it. */
  evaluate: (code: string, variables: Record<string, JsonValue>, now: number | undefined) => Promise<JsonValue>;
  /** Ends the connection, after a request that breaks the protocol's order or has the wrong secret. */
  close: () => void;
}

// Requests a client may send before its launch is let in.
const BEFORE_LAUNCH = new Set(["initialize", "launch", "disconnect"]);

export class AgentDebugAdapter extends ProtocolSession {
  private session: DebugSession | null = null;
  private source: SourceLines | null = null;
  private sourcePath: string | null = null;
  private closeSession: (() => Promise<void>) | undefined;
  private readonly handles = new Handles<Handle>();
  private configured!: () => void;
  private readonly configurationDone = new Promise<void>((r) => (this.configured = r));
  private initialized = false;
  /** The launch got in (its secret was right); a second one is refused. */
  private launched = false;

  constructor(
    private readonly open: Opener,
    private readonly options: AdapterOptions,
  ) {
    super();
    this.setDebuggerLinesStartAt1(true);
    this.setDebuggerColumnsStartAt1(true);
  }

  /** The protocol's order, kept before any request runs: `initialize` first, then a launch with the secret. */
  protected override dispatchRequest(request: DebugProtocol.Request): void {
    const command = String(request.command).slice(0, 40);
    let refusal: string | null = null;
    if (!this.initialized && command !== "initialize")
      refusal = `the first request must be 'initialize', not '${command}'`;
    else if (this.initialized && command === "initialize") refusal = "'initialize' was sent already";
    else if (!this.launched && !BEFORE_LAUNCH.has(command))
      refusal = `'${command}' before a launch: launch a program first`;
    if (refusal === null) return super.dispatchRequest(request);
    this.sendErrorResponse(new Response(request), 5, refusal);
    if (!this.initialized || command === "initialize") this.options.close();
  }

  protected override initializeRequest(response: DebugProtocol.InitializeResponse): void {
    this.initialized = true;
    response.body = {
      supportsConfigurationDoneRequest: true,
      supportsFunctionBreakpoints: true,
      supportsEvaluateForHovers: true,
      supportsTerminateRequest: true,
    };
    this.sendResponse(response);
  }

  protected override async launchRequest(response: DebugProtocol.LaunchResponse, args: LaunchArguments): Promise<void> {
    if (this.launched) {
      this.sendErrorResponse(
        response,
        6,
        "this session has launched a program already: start another session for another",
      );
      return;
    }
    if (this.options.secret !== undefined && !sameSecret(args.secret, this.options.secret)) {
      this.sendErrorResponse(
        response,
        7,
        args.secret === undefined
          ? 'this server needs its secret: put "secret" in the launch configuration (autograms dap printed it when it started)'
          : 'wrong secret: the launch configuration\'s "secret" is not the one this server printed when it started',
      );
      this.options.close();
      return;
    }
    this.launched = true;
    try {
      const opened = await this.open(args);
      this.session = opened.session;
      this.source = opened.source;
      this.sourcePath = opened.sourcePath;
      this.closeSession = opened.close;
    } catch (e) {
      this.sendErrorResponse(response, 1, e instanceof Error ? e.message : String(e));
      return;
    }
    const session = this.session;
    session.on((e) => this.onSessionEvent(e));
    // The client sends its breakpoints once it hears the program is loaded, then configurationDone.
    this.sendEvent(new InitializedEvent());
    await this.configurationDone;
    this.sendResponse(response);
    void session.run();
  }

  protected override configurationDoneRequest(response: DebugProtocol.ConfigurationDoneResponse): void {
    this.configured();
    this.sendResponse(response);
  }

  protected override setBreakPointsRequest(
    response: DebugProtocol.SetBreakpointsResponse,
    args: DebugProtocol.SetBreakpointsArguments,
  ): void {
    const requested = (args.breakpoints ?? args.lines?.map((line) => ({ line })) ?? []).map((b) =>
      this.convertClientLineToDebugger(b.line),
    );
    const session = this.session;
    const path =
      args.source.path === undefined ? undefined : resolve(this.convertClientPathToDebugger(args.source.path));
    if (!session || path === undefined || path !== this.sourcePath) {
      const why = session
        ? `not the agent's source file${this.sourcePath ? ` (${this.sourcePath})` : " (its .ts file is not at hand)"}`
        : "no agent is loaded";
      response.body = { breakpoints: requested.map(() => ({ verified: false, message: why })) };
      this.sendResponse(response);
      return;
    }
    const set = session.setLineBreakpoints(requested);
    response.body = {
      breakpoints: set.map((b) => {
        const bp: DebugProtocol.Breakpoint = new Breakpoint(
          b.line !== null,
          b.line === null ? undefined : this.convertDebuggerLineToClient(b.line),
          undefined,
          this.sourceRef(),
        );
        bp.id = b.id;
        if (b.message !== undefined) bp.message = b.message;
        return bp;
      }),
    };
    this.sendResponse(response);
  }

  protected override setFunctionBreakPointsRequest(
    response: DebugProtocol.SetFunctionBreakpointsResponse,
    args: DebugProtocol.SetFunctionBreakpointsArguments,
  ): void {
    const set = this.session?.setFunctionBreakpoints(args.breakpoints.map((b) => b.name)) ?? [];
    response.body = {
      breakpoints: set.map((b) => {
        const bp: DebugProtocol.Breakpoint = new Breakpoint(
          b.node !== null,
          b.line === null ? undefined : this.convertDebuggerLineToClient(b.line),
          undefined,
          this.sourceRef(),
        );
        bp.id = b.id;
        if (b.message) bp.message = b.message;
        return bp;
      }),
    };
    this.sendResponse(response);
  }

  protected override threadsRequest(response: DebugProtocol.ThreadsResponse): void {
    response.body = {
      threads: [new Thread(THREAD, this.session ? `${this.session.graph.agent} conversation` : "conversation")],
    };
    this.sendResponse(response);
  }

  protected override stackTraceRequest(
    response: DebugProtocol.StackTraceResponse,
    args: DebugProtocol.StackTraceArguments,
  ): void {
    const frames = this.session?.frames() ?? [];
    const start = args.startFrame ?? 0;
    const shown = frames.slice(start, args.levels ? start + args.levels : undefined);
    response.body = {
      totalFrames: frames.length,
      stackFrames: shown.map((f) => {
        const line = f.loc ? this.convertDebuggerLineToClient(f.loc.line) : 0;
        const column = f.loc ? this.convertDebuggerColumnToClient(f.loc.column) : 0;
        const frame: DebugProtocol.StackFrame = new StackFrame(
          f.index + 1,
          `${f.function} (${f.node})`,
          f.loc ? this.sourceRef() : undefined,
          line,
          column,
        );
        if (f.loc) {
          frame.endLine = this.convertDebuggerLineToClient(f.loc.endLine);
          frame.endColumn = this.convertDebuggerColumnToClient(f.loc.endColumn);
        } else {
          frame.presentationHint = "label";
        }
        return frame;
      }),
    };
    this.sendResponse(response);
  }

  protected override scopesRequest(response: DebugProtocol.ScopesResponse, args: DebugProtocol.ScopesArguments): void {
    const frame = args.frameId - 1;
    const scopes = this.session?.scopes(frame) ?? [];
    response.body = {
      scopes: scopes.map((s, i) => {
        const scope: DebugProtocol.Scope = new Scope(
          s.name,
          this.handles.create({ kind: "scope", frame, scope: i }),
          false,
        );
        scope.presentationHint = i === 0 ? "locals" : undefined;
        scope.namedVariables = Object.keys(s.variables).length;
        return scope;
      }),
    };
    this.sendResponse(response);
  }

  protected override variablesRequest(
    response: DebugProtocol.VariablesResponse,
    args: DebugProtocol.VariablesArguments,
  ): void {
    const handle = this.handles.get(args.variablesReference);
    let entries: [string, JsonValue][] = [];
    if (handle?.kind === "scope") {
      entries = Object.entries(this.session?.scopes(handle.frame)[handle.scope]?.variables ?? {});
    } else if (handle?.kind === "value" && handle.value !== null && typeof handle.value === "object") {
      entries = Array.isArray(handle.value) ? handle.value.map((v, i) => [String(i), v]) : Object.entries(handle.value);
    }
    response.body = { variables: entries.map(([name, value]) => this.variable(name, value)) };
    this.sendResponse(response);
  }

  protected override async evaluateRequest(
    response: DebugProtocol.EvaluateResponse,
    args: DebugProtocol.EvaluateArguments,
  ): Promise<void> {
    const session = this.session;
    if (!session) {
      this.sendErrorResponse(response, 2, "no agent is loaded");
      return;
    }
    // In the Debug Console, while the conversation waits, what the user types is their message.
    if (args.context === "repl" && session.state === "input") {
      session.send(args.expression);
      response.body = { result: `(sent: ${args.expression})`, variablesReference: 0 };
      this.sendResponse(response);
      this.sendEvent(new ContinuedEvent(THREAD, true));
      return;
    }
    try {
      const { code, variables, now } = session.evaluation(
        args.expression,
        args.frameId === undefined ? 0 : args.frameId - 1,
      );
      const value = await this.options.evaluate(code, variables, now);
      const v = this.variable(args.expression, value);
      response.body = { result: v.value, variablesReference: v.variablesReference };
      this.sendResponse(response);
    } catch (e) {
      this.sendErrorResponse(response, 3, e instanceof Error ? e.message : String(e));
    }
  }

  protected override continueRequest(response: DebugProtocol.ContinueResponse): void {
    response.body = { allThreadsContinued: true };
    this.resume(response, "continue");
  }

  protected override nextRequest(response: DebugProtocol.NextResponse): void {
    this.resume(response, "next");
  }

  protected override stepInRequest(response: DebugProtocol.StepInResponse): void {
    this.resume(response, "step");
  }

  protected override stepOutRequest(response: DebugProtocol.StepOutResponse): void {
    this.resume(response, "out");
  }

  protected override pauseRequest(response: DebugProtocol.PauseResponse): void {
    this.session?.pause();
    this.sendResponse(response);
  }

  protected override terminateRequest(response: DebugProtocol.TerminateResponse): void {
    this.session?.terminate();
    this.sendResponse(response);
  }

  protected override disconnectRequest(response: DebugProtocol.DisconnectResponse): void {
    this.session?.terminate();
    void this.release();
    this.sendResponse(response);
  }

  /** The client went away: the run it was debugging ends with it. */
  endSession(): Promise<void> {
    this.session?.terminate();
    this.configured();
    return this.release();
  }

  /** Once: a disconnect and the end of the connection both come. */
  private release(): Promise<void> {
    const close = this.closeSession;
    this.closeSession = undefined;
    return close ? close().catch(() => undefined) : Promise.resolve();
  }

  private resume(response: DebugProtocol.Response, mode: StepMode): void {
    try {
      this.session?.resume(mode);
      this.handles.reset();
      this.sendResponse(response);
    } catch (e) {
      this.sendErrorResponse(response, 4, e instanceof Error ? e.message : String(e));
    }
  }

  private onSessionEvent(e: SessionEvent): void {
    const session = this.session!;
    switch (e.kind) {
      case "stopped": {
        this.handles.reset();
        const stopped: DebugProtocol.StoppedEvent = new StoppedEvent(e.stop.reason, THREAD);
        stopped.body.description = `${e.stop.reason === "breakpoint" ? "Breakpoint" : "Paused"} before node ${e.stop.node}`;
        if (e.stop.breakpoints.length) stopped.body.hitBreakpointIds = e.stop.breakpoints.map((b) => b.id);
        this.sendEvent(stopped);
        break;
      }
      case "reply":
        this.sendEvent(new OutputEvent(`${session.config.agentName}: ${e.text}\n`, "stdout"));
        break;
      case "log": {
        // The code's print, at its place in the source (an editor links the line to it).
        const output: DebugProtocol.OutputEvent = new OutputEvent(
          `${e.text}\n`,
          e.level === "warn" || e.level === "error" ? "stderr" : "stdout",
        );
        const source = this.sourceRef();
        if (e.loc && source) {
          output.body.source = source;
          output.body.line = this.convertDebuggerLineToClient(e.loc.line);
        }
        this.sendEvent(output);
        break;
      }
      case "user":
        this.sendEvent(new OutputEvent(`you${e.recorded ? " (recorded)" : ""}: ${e.text}\n`, "stdout"));
        break;
      case "input": {
        this.handles.reset();
        this.sendEvent(
          new OutputEvent("The conversation waits for your message: type it in the Debug Console.\n", "console"),
        );
        const waiting: DebugProtocol.StoppedEvent = new StoppedEvent("pause", THREAD);
        waiting.body.description = "Waiting for the user's message (type it in the Debug Console)";
        this.sendEvent(waiting);
        break;
      }
      case "ended":
        if (e.why === "quit") this.sendEvent(new OutputEvent("The conversation has ended (quit).\n", "console"));
        if (e.why === "recording_over")
          this.sendEvent(new OutputEvent("The recording ends here: it holds no more user messages.\n", "console"));
        this.sendEvent(new ExitedEvent(0));
        this.sendEvent(new TerminatedEvent());
        break;
      case "error":
        this.sendEvent(
          new OutputEvent(
            formatAgentError(e.error, this.source?.text ?? undefined, { graph: session.graph }),
            "stderr",
          ),
        );
        this.sendEvent(new ExitedEvent(1));
        this.sendEvent(new TerminatedEvent());
        break;
    }
  }

  private variable(name: string, value: JsonValue): DebugProtocol.Variable {
    const expandable = value !== null && typeof value === "object" && Object.keys(value).length > 0;
    const v: DebugProtocol.Variable = new Variable(
      name,
      valueText(value, 500),
      expandable ? this.handles.create({ kind: "value", value }) : 0,
    );
    v.type = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
    return v;
  }

  private sourceRef(): Source | undefined {
    if (!this.source) return undefined;
    const name = this.source.file.split("/").pop()!;
    return this.sourcePath ? new Source(name, this.convertDebuggerPathToClient(this.sourcePath)) : new Source(name);
  }
}

/** Compared in constant time (as digests, so lengths do not tell either). */
function sameSecret(given: unknown, secret: string): boolean {
  if (typeof given !== "string") return false;
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(secret));
}
