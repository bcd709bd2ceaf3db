export { OpenAIModel } from "./openai/openai-model.js";
export type { OpenAIModelOptions } from "./openai/options.js";
export type { RetryNotice } from "./retries.js";
export { ModelError, type ModelFailure } from "./errors.js";
export { choiceLabels, formatChoices, promptWithChoices, readChoiceAnswer } from "./choices.js";
export { isToolCallingModel } from "./types.js";
export type {
  ChatModel,
  ChatMessage,
  CompletionRequest,
  ChoiceRequest,
  CompletionPurpose,
  JsonSchema,
  ToolCallingModel,
  ToolCall,
  ToolChatMessage,
  ToolCompletion,
  ToolCompletionRequest,
  ToolDefinition,
} from "./types.js";
export { OfflineModel } from "./offline-model.js";
export { ScriptedModel } from "./scripted-model.js";
export type {
  ModelScript,
  Script,
  Step,
  ChoiceAnswer,
  TextAnswer,
  ToolAnswer,
  ScriptedCall,
} from "./scripted-model.js";
