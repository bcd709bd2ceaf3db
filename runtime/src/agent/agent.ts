/**
 * The public face of the runtime: `new Agent(graph, { model })`, then `reply()` turn by turn,
 * `call()` to run one function to its return, `simulateUser()` / `simulate()` to talk to a
 * simulated user. Memory goes in and comes out as plain JSON and is never changed in place, so a
 * failed turn leaves the caller holding the last good state.
 */
import type { Graph, JsonValue } from "@autograms/graph";
import { argumentCountProblem, LAST_USER_REPLY } from "@autograms/graph";
import { validateGraph } from "@autograms/sandbox";
import type { ChatModel } from "../model/types.js";
import {
  createSandboxPool,
  evaluateAsync,
  type HostFunction,
  type SandboxLimits,
  type SandboxPool,
} from "@autograms/sandbox";
import { AgentError } from "../errors.js";
import type { Env } from "../engine/env.js";
import { compileProgram, type Program } from "../engine/program.js";
import { top, writeVars } from "../engine/scope.js";
import { toMemoryBody, toRunMemory } from "../engine/stack.js";
import type { RunState } from "../engine/state.js";
import { freshMemory, openMemory, sealMemory, verifiedMemory } from "../memory/seal.js";
import { migrateMemory } from "./migrate.js";
import { promptChanges, withPrompts, type PromptChange } from "./prompt-changes.js";
import { editedMemory } from "./edit-variables.js";
import type { Frame, Memory } from "../memory/types.js";
import { memoryDelta, type MemoryDelta } from "../memory/delta.js";
import { isToolRunOptions, toolDefinitionOf, toolRunOptions, type ToolRunOptions } from "../language/tools.js";
import type { ToolDefinition } from "../model/types.js";
import { RUNTIME_MODULE, RUNTIME_TOOLS, type RuntimeTool } from "@autograms/graph";
import { runtimeTools } from "./builtin-tools.js";
import { recordingToolCalls } from "./code-tool-calls.js";
import type { ActionDefinition } from "../language/actions.js";
import { checkActions } from "./action-hooks.js";
import { defaultConfig, type AgentConfig } from "../engine/config.js";
import { drive } from "./loop.js";
import { withSettings } from "./run-model.js";
import type { Performer } from "./performer.js";
import type { ReplyResult, RunOptions } from "./run-options.js";
import { Deadline } from "./deadline.js";
import { ReplyStream } from "./reply-stream.js";
import { shownValue } from "../shown-value.js";
import { startTurn } from "../telemetry/turn.js";
import { instrument } from "../telemetry/instrument.js";
import {
  simulateConversation,
  simulateUserReply,
  type SimulateOptions,
  type Simulation,
  type SimulatedUser,
  type UserSimulationOptions,
} from "./simulate.js";

/** A function the agent's code may call; it gets copies of its arguments and may be async. */
export type Tool = (...args: any[]) => unknown;

export interface AgentOptions {
  model: ChatModel;
  /**
   * Implementations of the graph's `tools`, by name. Tools made with `defineTool` carry the
   * description a node needs to offer them to the model natively. Tools the agent imports from
   * the runtime itself (`tryTool`, `buildReactPrompt`, `parseLatestPluginCall`) need no entry.
   */
  tools?: Record<string, Tool>;
  /**
   * Implementations of the graph's custom actions (made with `defineAction`): an array, or an
   * object of them by action name. Each must match what the graph was compiled with.
   */
  actions?: readonly ActionDefinition<any, any>[] | Record<string, ActionDefinition<any, any>>;
  /**
   * Sandbox limits for each evaluation; `maxSteps`: node steps allowed in one reply() or call()
   * (default 10,000,000); `maxCallDepth`: function calls on the stack at once (default 10,000).
   */
  limits?: Partial<SandboxLimits> & { maxSteps?: number; maxCallDepth?: number };
  config?: Partial<AgentConfig>;
  /**
   * Where the graph's code runs (code nodes, conditions, arguments, return expressions).
   * "in-process" (the default): in this process, inside the sandbox's limits. "process": in child
   * processes (`createSandboxPool`), so that whatever the code does, it cannot take this process
   * down; the agent makes its pool when code first runs and `close()` stops it. A `SandboxPool`:
   * that pool, shared with whoever made it (who closes it). Tools still run in this process.
   */
  isolation?: "in-process" | "process" | SandboxPool;
  /**
   * The clock: milliseconds since 1970, read once at the start of every reply() and call(), whose
   * code then gets that value from `Date.now()` for the whole run. `Date.now` by default; pass
   * your own to make runs that read the time repeatable.
   */
  clock?: () => number;
}

const DEFAULT_MAX_STEPS = 10_000_000;
const DEFAULT_MAX_CALL_DEPTH = 10_000;

/**
 * One of the agent's tools as `Agent.listTools` tells of it: a described tool's definition, or a
 * plain function's name with `parameters: null` (it has no schema).
 */
export type ListedTool = ToolDefinition | { name: string; description?: undefined; parameters: null };

export class Agent {
  readonly graph: Graph;
  readonly config: AgentConfig;
  private readonly program: Program;
  /** The model the agent's runs use, unless a run gives its own (`RunOptions.model`). */
  readonly model: ChatModel;
  /** The tools as code and the model get them: the agent's own (`agentTools`) and the runtime's functions (tryTool, ...). */
  private readonly tools: Record<string, HostFunction>;
  /** The tools given in the options, arguments copied in. */
  private readonly agentTools: Record<string, HostFunction>;
  /** The definitions of the tools that describe themselves (defineTool, MCP servers' tools), by name. */
  private readonly toolDefinitions: Readonly<Record<string, ToolDefinition>>;
  /** The runtime's own functions among the tools (tryTool, ...), by their name in the graph. */
  private readonly ownTools = new Map<string, RuntimeTool>();
  private readonly actions: Record<string, ActionDefinition<any, any>>;
  private readonly evaluate: Performer["evaluate"];

  /** The graph's identity, as the memory of a turn played on it records it (`memory.graph.hash`, a thread's `graphHash`). */
  get graphHash(): string {
    return this.program.hash;
  }
  /** The pool this agent made for `isolation: "process"`, once code has run. */
  private ownPool: SandboxPool | null = null;
  private readonly clock: () => number;

  constructor(graph: unknown, options: AgentOptions) {
    const checked = validateGraph(graph);
    if (!checked.valid) {
      const file = (graph as Graph | null)?.source?.file;
      const lines = checked.errors.map((e) =>
        e.loc ? `${file ?? "<graph>"}:${e.loc.line}:${e.loc.column}: ${e.message}` : `${e.path}: ${e.message}`,
      );
      throw new AgentError("invalid_graph", `the graph is not valid:\n${lines.map((l) => `  ${l}`).join("\n")}`);
    }
    if (!options || typeof options.model !== "object" || options.model === null) {
      throw new AgentError("bad_input", "new Agent(graph, { model }) needs a model (a ChatModel)");
    }
    this.graph = structuredClone(checked.graph);
    this.config = { ...defaultConfig, ...options.config };
    this.model = options.model;
    const tools: Record<string, HostFunction> = {};
    const toolDefinitions: Record<string, ToolDefinition> = {};
    for (const [name, fn] of Object.entries(options.tools ?? {})) {
      tools[name] = copyingArguments(fn);
      const definition = toolDefinitionOf(fn);
      if (definition) toolDefinitions[name] = definition;
    }
    for (const [name, info] of Object.entries(this.graph.tools ?? {})) {
      if (info.module === RUNTIME_MODULE && (RUNTIME_TOOLS as readonly string[]).includes(info.export))
        this.ownTools.set(name, info.export as RuntimeTool);
    }
    this.agentTools = tools;
    this.toolDefinitions = toolDefinitions;
    this.tools = this.withRuntimeTools(tools, {});
    if (options.clock !== undefined && typeof options.clock !== "function") {
      throw new AgentError(
        "bad_input",
        `clock must be a function returning milliseconds since 1970, not ${shownValue(options.clock)}`,
      );
    }
    this.clock = options.clock ?? Date.now;
    this.actions = checkActions(this.graph.actions ?? {}, options.actions, this.graph.source?.file);
    const actionHooks = Object.fromEntries(
      Object.keys(this.graph.actions ?? {}).map((name) => {
        const d = this.actions[name]!;
        return [name, { instruction: !!d.instruction, transition: !!d.transition, output: !!d.output }];
      }),
    );
    const isolation = options.isolation ?? "in-process";
    if (isolation === "in-process") this.evaluate = evaluateAsync;
    else if (isolation === "process")
      this.evaluate = (code, variables, limits) =>
        (this.ownPool ??= createSandboxPool()).evaluate(code, variables, limits);
    else if (typeof isolation === "object" && isolation !== null && typeof isolation.evaluate === "function") {
      this.evaluate = (code, variables, limits) => isolation.evaluate(code, variables, limits);
    } else {
      throw new AgentError(
        "bad_input",
        `isolation must be "in-process", "process" or a SandboxPool, not ${shownValue(isolation)}`,
      );
    }
    const { maxSteps, maxCallDepth, ...limits } = options.limits ?? {};
    this.program = compileProgram(this.graph, {
      config: this.config,
      limits: Object.keys(limits).length ? limits : undefined,
      maxSteps: maxSteps ?? DEFAULT_MAX_STEPS,
      maxCallDepth: maxCallDepth ?? DEFAULT_MAX_CALL_DEPTH,
      toolNames: Object.keys(this.tools),
      toolDefinitions,
      isolated: isolation !== "in-process",
      actionHooks,
    });
  }

  /**
   * Every tool given in the options, under the name the agent was given it by (what `callTool`
   * takes): a tool that describes itself (made with defineTool, an MCP server's) with its
   * description and JSON Schema as a model is offered them; a plain function, which only the
   * agent's code calls (no model is offered it), by its name with `parameters: null`.
   */
  listTools(): ListedTool[] {
    return Object.keys(this.agentTools).map((name) => {
      const definition = Object.hasOwn(this.toolDefinitions, name) ? this.toolDefinitions[name] : undefined;
      return definition ? { ...definition, name } : { name, parameters: null };
    });
  }

  /**
   * Calls one of `listTools()` outside any turn, its arguments copied in (as a model's call or the
   * code's are): a described tool takes its arguments object, and `signal` is passed on to it (an
   * MCP tool cancels its request); a plain function takes an array as its argument list, as the
   * agent's code passes them, or an object as its one argument. What the tool throws is thrown; a
   * name that is none of them is an AgentError `missing_tool`.
   */
  async callTool(name: string, args: Record<string, unknown> | unknown[], signal?: AbortSignal): Promise<unknown> {
    const tool = Object.hasOwn(this.agentTools, name) ? this.agentTools[name] : undefined;
    if (!tool) throw new AgentError("missing_tool", `the agent has no tool '${name}'`);
    if (!Object.hasOwn(this.toolDefinitions, name))
      return await tool(...((Array.isArray(args) ? args : [args]) as JsonValue[]));
    if (Array.isArray(args))
      throw new AgentError("bad_input", `tool '${name}' takes its arguments as an object, not an array`);
    const withOptions = tool as (args: Record<string, unknown>, options: ToolRunOptions) => unknown;
    return await withOptions(args, toolRunOptions(signal ?? new AbortController().signal));
  }

  /** Stops the child processes of the pool this agent made (`isolation: "process"`); a pool passed in is its owner's to close. */
  async close(): Promise<void> {
    const pool = this.ownPool;
    this.ownPool = null;
    await pool?.close();
  }

  /** One turn: the user's message in, the agent's reply and the new memory out. */
  async reply(userText: string, memory?: Memory | unknown, options: RunOptions = {}): Promise<ReplyResult> {
    if (typeof userText !== "string")
      throw new AgentError("bad_input", `reply() takes the user's message as a string, got ${typeof userText}`);
    let state: RunState;
    if (memory === undefined || memory === null) {
      const fresh = freshMemory(this.program);
      // A conversation set up with other starting values: checked as editVariables checks an edit.
      const start = options.globals === undefined ? fresh : editedMemory(sealMemory(fresh), 0, options.globals);
      const mem = writeVars(toRunMemory(start), { [LAST_USER_REPLY]: userText });
      state = {
        mem,
        phase: { kind: "enter", node: this.program.start },
        pending: userText,
        mode: "reply",
        steps: 0,
        decisions: [],
      };
    } else {
      const mem = toRunMemory(this.open(memory));
      state = {
        mem,
        phase: { kind: "waiting", node: top(mem).node },
        pending: null,
        mode: "reply",
        steps: 0,
        decisions: [],
      };
    }
    const input =
      memory === undefined || memory === null
        ? { kind: "continue" as const }
        : { kind: "user" as const, text: userText };
    const { state: end, effect } = await this.run(options, undefined, (p) => drive(p, state, input));
    const sealed = sealMemory({ ...toMemoryBody(end.mem), turn: end.mem.turn + 1 });
    const delta = memoryDelta(memory === undefined || memory === null ? null : (memory as Memory), sealed);
    return {
      reply: effect.kind === "reply" ? effect.text : null,
      memory: sealed,
      done: effect.kind === "finish" || end.mem.done,
      delta,
    };
  }

  /**
   * Checks memory as reply() does before a turn (what it is, its checksum, its agent, whether the
   * graph still holds it, whether the conversation is over) without running one: a caller can
   * refuse it before showing anything of it. Throws the AgentError reply() would.
   */
  checkMemory(memory: unknown): void {
    this.open(memory);
  }

  /**
   * Why a saved conversation cannot resume on this agent (an edit changed where it stands: the
   * `stale_memory` error's detail), or null when it can or has ended. Other problems with the
   * memory throw as checkMemory does.
   */
  staleProblem(memory: Memory): string | null {
    if (memory.done) return null;
    try {
      this.open(memory);
      return null;
    } catch (err) {
      if (err instanceof AgentError && err.code === "stale_memory") return err.detail;
      throw err;
    }
  }

  /**
   * Moves a conversation to node `node` of this agent's graph, keeping its variables and turns:
   * for memory that cannot resume here (`stale_memory`), or to send a conversation elsewhere. The
   * node must be one a conversation waits at, in main or in the function the conversation is
   * inside, and every variable it reads must exist; else an AgentError `bad_migration` says why.
   * The next reply() takes the user's message as the answer to that node. With `takePrompts`,
   * each frame whose function sets another prompt than the one it holds takes that prompt
   * (`promptChanges`).
   */
  migrate(
    memory: unknown,
    node: string,
    options: { takePrompts?: boolean } = {},
  ): { memory: Memory; delta: MemoryDelta } {
    if (typeof node !== "string")
      throw new AgentError("bad_input", `migrate() takes the node's name as a string, got ${typeof node}`);
    const before = verifiedMemory(memory);
    const moved = migrateMemory(this.program, before, node);
    const sealed = sealMemory(options.takePrompts ? withPrompts(moved, promptChanges(this.program, moved)) : moved);
    return { memory: sealed, delta: memoryDelta(before, sealed) };
  }

  /**
   * The frames of a saved conversation whose prompt is not the one their function sets in this
   * agent's graph (its `setPrompt` text was edited since the prompt was stored): where the graph
   * tells without doubt, one constant prompt set and none appended. `migrate(..., { takePrompts:
   * true })` gives them the new ones.
   */
  promptChanges(memory: unknown): PromptChange[] {
    return promptChanges(this.program, verifiedMemory(memory));
  }

  /**
   * Sets variables of frame `frame` of a saved conversation (0: main, whose variables are the
   * globals; the last: where it stands) to new values, keeping everything else: to try what a
   * turn would have done with other values. Each variable must exist in the frame and each value
   * be plain JSON; else an AgentError `bad_input` says why.
   */
  editVariables(memory: unknown, frame: number, set: Record<string, unknown>): { memory: Memory; delta: MemoryDelta } {
    const before = verifiedMemory(memory);
    const sealed = sealMemory(editedMemory(before, frame, set));
    return { memory: sealed, delta: memoryDelta(before, sealed) };
  }

  /** Runs a function to its return (the original's `apply_fn`); it may not reach a chat node. */
  async call(name: string, args: JsonValue[] = [], options: RunOptions = {}): Promise<JsonValue> {
    const info = Object.prototype.hasOwnProperty.call(this.graph.functions, name)
      ? this.graph.functions[name]
      : undefined;
    if (!info) {
      const known = Object.keys(this.graph.functions);
      throw new AgentError(
        "bad_call",
        `the graph has no function '${name}'${known.length ? ` (it has ${known.join(", ")})` : ""}`,
      );
    }
    if (!Array.isArray(args))
      throw new AgentError("bad_input", `call('${name}', args) takes the arguments as an array`);
    const problem = argumentCountProblem(name, info, args.length);
    if (problem) throw new AgentError("bad_call", problem, { loc: info.loc, file: this.program.file });
    const mem = freshMemory(this.program);
    const vars: Record<string, JsonValue> = {};
    const copies = structuredClone(args);
    info.params.forEach((p, i) => {
      vars[p] = i < copies.length ? copies[i]! : structuredClone(info.defaults?.[p] ?? null);
    });
    const base = mem.stack[0]!;
    const frame: Frame = {
      scope: info.kind,
      function: name,
      node: "",
      id: "",
      vars,
      turns: [],
      prompt: info.kind === "local_function" ? this.config.defaultPrompt : base.prompt,
      userPrompt: info.kind === "local_function" ? this.config.defaultUserPrompt : base.userPrompt,
    };
    const state: RunState = {
      mem: toRunMemory({ ...mem, stack: [base, frame] }),
      phase: { kind: "enter", node: info.entry },
      pending: null,
      mode: "call",
      steps: 0,
      decisions: [],
    };
    const { effect } = await this.run(options, name, (p) => drive(p, state, { kind: "continue" }));
    return effect.kind === "finish" ? effect.value : null;
  }

  /** What a simulated user says next, following the graph's user-simulation fields. */
  async simulateUser(memory: Memory | unknown, options: UserSimulationOptions = {}): Promise<SimulatedUser> {
    return simulateUserReply(this.performer({}), this.open(memory), options);
  }

  /** A whole conversation with a simulated user, until `quit`, the end signal or `maxTurns`. */
  async simulate(options: SimulateOptions = {}): Promise<Simulation> {
    return simulateConversation(this, options);
  }

  private open(memory: unknown): ReturnType<typeof openMemory> {
    const mem = openMemory(this.program, memory);
    if (mem.done)
      throw new AgentError(
        "conversation_over",
        "this conversation has ended (it reached 'quit'); start a new one without memory",
      );
    const waiting = mem.stack[mem.stack.length - 1]!.node;
    const at = this.program.nodes.get(waiting);
    if (!at?.waits)
      throw new AgentError(
        "bad_memory",
        `corrupt memory: the conversation should wait at a chat node, not at '${waiting}'`,
      );
    return mem;
  }

  /** A turn or a call, traced as one when an OpenTelemetry SDK records (telemetry/). */
  private run<T>(options: RunOptions, fn: string | undefined, work: (p: Performer) => Promise<T>): Promise<T> {
    const performer = this.performer(options);
    const spans = startTurn({
      graph: this.graph,
      ...(fn !== undefined && { function: fn }),
      ...(options.conversationId !== undefined && { conversationId: options.conversationId }),
    });
    if (!spans) return work(performer);
    return spans.run(() => work(instrument(performer, spans, new Set(this.ownTools.keys()))));
  }

  private performer(options: RunOptions): Performer {
    const env: Env = {
      program: this.program,
      tracing: options.trace !== undefined,
      // Nobody sees a frame before the run ends: its own copies of variables are written in place.
      ...(options.trace === undefined && options.pause === undefined && { fresh: { vars: null } }),
      // Frozen: the sandbox resolves the limits of a run's evaluations once (resolve-limits.ts).
      sandbox: Object.freeze({ ...this.program.limits, now: this.runTime(options.now) }),
    };
    const { deadlineMs, signal } = options;
    if (deadlineMs !== undefined && !(typeof deadlineMs === "number" && deadlineMs > 0)) {
      throw new AgentError(
        "bad_input",
        `deadlineMs takes a number of milliseconds above 0, not ${shownValue(deadlineMs)}`,
      );
    }
    if (options.onText !== undefined && typeof options.onText !== "function") {
      throw new AgentError(
        "bad_input",
        `onText takes a function that receives the reply's chunks, not ${shownValue(options.onText)}`,
      );
    }
    if (
      signal !== undefined &&
      typeof (signal as { addEventListener?: unknown } | null)?.addEventListener !== "function"
    ) {
      throw new AgentError("bad_input", `signal takes an AbortSignal, not ${shownValue(signal)}`);
    }
    for (const hook of ["trace", "pause"] as const) {
      if (options[hook] !== undefined && typeof options[hook] !== "function")
        throw new AgentError("bad_input", `${hook} takes a function, not ${shownValue(options[hook])}`);
    }
    const deadline = deadlineMs === undefined && signal === undefined ? undefined : new Deadline(deadlineMs, signal);
    const replies = options.onText && new ReplyStream(options.onText);
    const given = options.model ?? this.model;
    if (typeof given?.complete !== "function" || typeof given.choose !== "function") {
      throw new AgentError("bad_input", "model must be a ChatModel (with complete() and choose())");
    }
    const settings = options.modelSettings;
    const model = settings === undefined ? given : withSettings(given, settings);
    const standIns = options.tools ? this.standIns(options.tools) : undefined;
    const base = standIns ? { ...this.agentTools, ...standIns } : this.agentTools;
    const tools = standIns ? this.withRuntimeTools(base, standIns) : this.tools;
    // A traced run's code calls are recorded (the trace holds them, a replay answers them).
    const recording = options.trace && recordingToolCalls(base);
    return {
      env,
      model,
      ...(settings !== undefined && { settings }),
      tools,
      codeTools: recording ? this.withRuntimeTools(recording.tools, standIns ?? {}) : tools,
      ...(recording && { takeCodeCalls: recording.take }),
      evaluate: this.evaluate,
      actions: options.hooks ? this.withHooks(options.hooks) : this.actions,
      trace: options.trace,
      pause: options.pause,
      deadline,
      replies,
    };
  }

  /**
   * `tools` with the runtime's own functions over them (tryTool calls these very tools), unless
   * `kept` gives one of those names a stand-in.
   */
  private withRuntimeTools(
    tools: Record<string, HostFunction>,
    kept: Record<string, HostFunction>,
  ): Record<string, HostFunction> {
    const out = { ...tools };
    // Over the whole map: tryTool may call the runtime's other functions too.
    const builtins = runtimeTools(out);
    // The runtime's own functions are always its own implementations, whatever a loader passed.
    for (const [name, own] of this.ownTools) out[name] = Object.hasOwn(kept, name) ? kept[name]! : builtins[own];
    return out;
  }

  /** The custom actions with a run's stand-ins for some of their hooks. */
  private withHooks(given: NonNullable<RunOptions["hooks"]>): Record<string, ActionDefinition<any, any>> {
    const out = { ...this.actions };
    for (const [name, hooks] of Object.entries(given)) {
      const action = Object.hasOwn(this.actions, name) ? this.actions[name] : undefined;
      if (!action) throw new AgentError("bad_input", `hooks: '${name}' is not one of the agent's custom actions`);
      const standIns: Record<string, unknown> = {};
      // Only for the hooks the action has: the graph was compiled with those.
      for (const hook of ["instruction", "transition", "output"] as const) {
        const fn = hooks?.[hook];
        if (fn === undefined || !action[hook]) continue;
        if (typeof fn !== "function")
          throw new AgentError("bad_input", `hooks: the ${hook} hook of action '${name}' must be a function`);
        standIns[hook] = fn;
      }
      out[name] = { ...action, ...standIns } as ActionDefinition<any, any>;
    }
    return out;
  }

  /** A run's stand-ins for tools of the graph, made like the agent's own (arguments copied in). */
  private standIns(given: Record<string, Tool>): Record<string, HostFunction> {
    const out: Record<string, HostFunction> = {};
    for (const [name, fn] of Object.entries(given)) {
      if (!Object.hasOwn(this.tools, name))
        throw new AgentError("bad_input", `tools: '${name}' is not one of the agent's tools`);
      if (typeof fn !== "function") throw new AgentError("bad_input", `tools: '${name}' must be a function`);
      out[name] = copyingArguments(fn);
    }
    return out;
  }

  /** The run's time: given, or the clock's, checked (code would compute with it). */
  private runTime(given: number | undefined): number {
    const time = given ?? this.clock();
    if (typeof time !== "number" || !Number.isFinite(time)) {
      throw new AgentError(
        "bad_input",
        `${given === undefined ? "the agent's clock returned" : "now must be"} a finite number of milliseconds since 1970, not ${shownValue(time)}`,
      );
    }
    return time;
  }
}

function copyingArguments(fn: Tool): HostFunction {
  return ((...args: unknown[]) => {
    const options = args.at(-1);
    return isToolRunOptions(options)
      ? fn(...structuredClone(args.slice(0, -1)), options)
      : fn(...structuredClone(args));
  }) as HostFunction;
}
