// The names traces use: the OpenTelemetry GenAI semantic conventions (gen_ai.*), the code
// location conventions (code.*), and the runtime's own (autograms.*), each written once here.

export const ATTR = {
  operation: "gen_ai.operation.name",
  provider: "gen_ai.provider.name",
  requestModel: "gen_ai.request.model",
  agentName: "gen_ai.agent.name",
  conversation: "gen_ai.conversation.id",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolType: "gen_ai.tool.type",
  inputTokens: "gen_ai.usage.input_tokens",
  outputTokens: "gen_ai.usage.output_tokens",
  finishReasons: "gen_ai.response.finish_reasons",
  inputMessages: "gen_ai.input.messages",
  outputMessages: "gen_ai.output.messages",
  errorType: "error.type",
  file: "code.file.path",
  line: "code.line.number",
  column: "code.column.number",
  node: "autograms.node.name",
  action: "autograms.node.action",
  function: "autograms.function",
  purpose: "autograms.model.purpose",
} as const;

export const OPERATION = { agent: "invoke_agent", chat: "chat", tool: "execute_tool" } as const;

/** The conventions' rule: message contents are recorded only when this variable says `true`. */
export const CAPTURE_CONTENT_ENV = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT";

// The AI SDK names providers "anthropic.messages", "openai.chat", ...; the conventions' names
// for the well-known ones differ from the first part of some.
const PROVIDER_NAMES: Record<string, string> = {
  google: "gcp.gemini",
  vertex: "gcp.vertex_ai",
  "amazon-bedrock": "aws.bedrock",
  azure: "azure.ai.openai",
  mistral: "mistral_ai",
  xai: "x_ai",
};

/** `gen_ai.provider.name` for a model's `provider`. */
export function providerName(provider: string | undefined): string {
  if (!provider) return "unknown";
  const first = provider.split(".")[0]!;
  return PROVIDER_NAMES[first] ?? first;
}
