/// <reference types="node" preserve="true" />
// The reference (kept in the emitted .d.ts, as in each entry's) brings Node's types, a dependency
// of this package, into a project that lists none (`types: []`): the API speaks of AbortSignal,
// URL and streams, and the openai client's types of fetch's.
// Public API of @autograms/runtime (docs/runtime.md#api). Each area adds its exports here.

// Agent language: what agent files import.
export {
  Autogram,
  exec_node,
  chat,
  chatExact,
  chatSuffix,
  thought,
  thoughtExact,
  thoughtQa,
  setPrompt,
  appendPrompt,
  setUserPrompt,
  appendUserPrompt,
  func,
  localFunction,
  globalFunction,
  tryTool,
} from "./language/declarations.js";
export type { ExecNodeFields, ShorthandFields, CustomNodeFields, CommonNodeFields } from "./language/fields.js";
export type { ToolOutcome } from "./language/declarations.js";

// Tools: functions that describe themselves to models; the runtime's own functions agents call as tools.
export { defineTool, toolDefinitionOf, reactPlugin } from "./language/tools.js";
export { argumentsProblem } from "./mcp/arguments.js";
export type { DefinedTool, ToolSpec, ToolParameters, ToolRunOptions } from "./language/tools.js";

// Custom actions: node types of your own, with hooks for what the original's node classes override.
export { defineAction, isActionDefinition } from "./language/actions.js";
export type {
  ActionDefinition,
  ActionSpec,
  ActionContext,
  LeavingContext,
  ActionModel,
  InstructionResult,
  FieldSchema,
  FieldValues,
  SchemaValue,
} from "./language/actions.js";

// Graph format (@autograms/graph), whole: its types, JSON Schema, the checks of custom actions'
// declarations, and its vocabulary (node fields, actions, transition targets, the runtime's own
// tools): docs/vocabulary.md. Validation here includes the evaluator's check of the graph's code.
export * from "@autograms/graph";
export { validateGraph, codeProblems } from "@autograms/sandbox";

// Models.
export type {
  ChatModel,
  ChatMessage,
  CompletionRequest,
  ChoiceRequest,
  CompletionPurpose,
  JsonSchema,
  ModelSettings,
  TokenUsage,
  UsageListener,
} from "./model/types.js";
export { MAX_TEMPERATURE, settingsOfTrace, settingsProblem, settingsText } from "./model/settings.js";
export { addUsage, hasUsage } from "./model/usage.js";
export type {
  ToolCallingModel,
  ToolCall,
  ToolChatMessage,
  ToolCompletion,
  ToolCompletionRequest,
  ToolDefinition,
} from "./model/types.js";
export {
  OpenAIModel,
  OfflineModel,
  ScriptedModel,
  ModelError,
  isToolCallingModel,
  choiceLabels,
  formatChoices,
  promptWithChoices,
  readChoiceAnswer,
} from "./model/index.js";
export type {
  OpenAIModelOptions,
  RetryNotice,
  ModelFailure,
  ModelScript,
  Script,
  Step,
  ChoiceAnswer,
  TextAnswer,
  ToolAnswer,
  ScriptedCall,
} from "./model/index.js";

// ReAct prompts (the reference format, byte for byte).
export {
  buildReactPrompt,
  parseLatestPluginCall,
  pythonJsonDumps,
  pythonFloatRepr,
  PyFloat,
  UnsupportedArgsFormatError,
} from "./tool-text/index.js";
export type { PluginInfo, PluginCall, ChatTurn } from "./tool-text/index.js";

// Runtime: agents, memory, traces.
export { Agent } from "./agent/agent.js";
export { shownValue } from "./shown-value.js";
export type { AgentOptions, ListedTool, Tool } from "./agent/agent.js";
export type { RunOptions, ReplyResult } from "./agent/run-options.js";
export type { PromptChange } from "./agent/prompt-changes.js";
export type { ReplyChunk } from "./agent/reply-stream.js";
export type { PausePoint, PauseHook } from "./agent/performer.js";
export { defaultConfig } from "./engine/config.js";
export type { AgentConfig } from "./engine/config.js";
export type { SimulateOptions, Simulation, SimulatedUser, UserSimulationOptions } from "./agent/simulate.js";
export { seededRandom, conversationSeed } from "./agent/seeded-random.js";
export { AgentError } from "./errors.js";
export type { AgentErrorCode } from "./errors.js";
export type { Memory, Frame, Turn, Scope } from "./memory/types.js";
export { applyDelta } from "./memory/delta.js";
export type { MemoryDelta, FrameChange } from "./memory/delta.js";
export type { TraceEvent, TraceSink, Decision, VariableChange, ActionCall } from "./trace/events.js";
export { replyOf, replyStep } from "./trace/events.js";
export { storedEvent, storedTrace } from "./trace/stored-trace.js";
export type { StoredTraceEvent } from "./trace/stored-trace.js";

// Sandboxed evaluator.
export {
  evaluate,
  evaluateAsync,
  checkCode,
  hostFunctionNames,
  SandboxError,
  DEFAULT_LIMITS,
  createSandboxPool,
  SANDBOX_SURFACE,
  surfaceProblems,
  allMethods,
  globalHint,
  methodHint,
  unknownFunctionHint,
} from "@autograms/sandbox";
export type {
  SandboxLimits,
  SandboxOptions,
  Evaluation,
  HostFunction,
  SandboxErrorKind,
  SandboxPool,
  SandboxPoolOptions,
  SandboxSurface,
  SurfaceProblem,
  LogLevel,
  SandboxLog,
} from "@autograms/sandbox";

// Debugging: errors with code frames, recorded runs replayed without a model.
export { formatAgentError } from "./debug/format-error.js";
export type { FormatErrorOptions } from "./debug/format-error.js";
export { parseTrace, conversationsOf, RecordingError } from "./debug/recording.js";
export type { RecordedConversation, RecordedTurn } from "./debug/recording.js";
export { ReplayModel, ReplayDivergence, recordedCalls } from "./debug/replay-model.js";
export type { RecordedCall, ReplayModelOptions } from "./debug/replay-model.js";
export { replayConversation } from "./debug/replay.js";
export { recordedStandIns, RecordingExhausted } from "./debug/recorded-stand-ins.js";
export type { RecordedStandIns } from "./debug/recorded-stand-ins.js";
export type { ReplayOptions, ReplayedTurn } from "./debug/replay.js";
export { DebugSession } from "./debug/session.js";
export type { DebugSessionOptions, SessionEvent, SessionState, StepMode, Stop } from "./debug/session.js";
export type { Breakpoint, LineBreakpoint, FunctionBreakpoint } from "./debug/breakpoints.js";
export { scopeOf } from "./debug/inspect.js";
export type { DebugFrame, DebugScope } from "./debug/inspect.js";
