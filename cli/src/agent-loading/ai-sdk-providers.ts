// `--model PROVIDER:MODEL`: the AI SDK provider packages the command line knows by a short name.
// Only these prefixes are split off, so that a model name with a colon of its own (`llama3.1:8b`)
// still names a model on an OpenAI-compatible server.

export interface KnownProvider {
  /** The package. */
  package: string;
  /** Its major version made for ai 7 (language models v4, Node 22 or later). */
  major: number;
  /** Its major version made for ai 6 (language models v3), which runs on Node 20 too. */
  ai6Major: number;
  /** The package's factory: `create(settings)(modelId)` is the language model. */
  create: string;
  /** The environment variable the provider reads its key from, when it needs one. */
  keyEnv?: string;
  /** The provider needs a server (`--base-url`): it has no default one. */
  needsBaseUrl?: boolean;
}

export const PROVIDERS: Readonly<Record<string, KnownProvider>> = {
  openai: { package: "@ai-sdk/openai", major: 4, ai6Major: 3, create: "createOpenAI", keyEnv: "OPENAI_API_KEY" },
  anthropic: {
    package: "@ai-sdk/anthropic",
    major: 4,
    ai6Major: 3,
    create: "createAnthropic",
    keyEnv: "ANTHROPIC_API_KEY",
  },
  google: {
    package: "@ai-sdk/google",
    major: 4,
    ai6Major: 3,
    create: "createGoogleGenerativeAI",
    keyEnv: "GOOGLE_GENERATIVE_AI_API_KEY",
  },
  mistral: { package: "@ai-sdk/mistral", major: 4, ai6Major: 3, create: "createMistral", keyEnv: "MISTRAL_API_KEY" },
  groq: { package: "@ai-sdk/groq", major: 4, ai6Major: 3, create: "createGroq", keyEnv: "GROQ_API_KEY" },
  xai: { package: "@ai-sdk/xai", major: 5, ai6Major: 3, create: "createXai", keyEnv: "XAI_API_KEY" },
  deepseek: {
    package: "@ai-sdk/deepseek",
    major: 3,
    ai6Major: 2,
    create: "createDeepSeek",
    keyEnv: "DEEPSEEK_API_KEY",
  },
  cohere: { package: "@ai-sdk/cohere", major: 4, ai6Major: 3, create: "createCohere", keyEnv: "COHERE_API_KEY" },
  bedrock: { package: "@ai-sdk/amazon-bedrock", major: 5, ai6Major: 4, create: "createAmazonBedrock" },
  azure: { package: "@ai-sdk/azure", major: 4, ai6Major: 3, create: "createAzure", keyEnv: "AZURE_API_KEY" },
  ollama: { package: "ollama-ai-provider-v2", major: 4, ai6Major: 3, create: "createOllama" },
  "openai-compatible": {
    package: "@ai-sdk/openai-compatible",
    major: 3,
    ai6Major: 2,
    create: "createOpenAICompatible",
    needsBaseUrl: true,
  },
};

/** `anthropic:claude-sonnet-4-5` as its provider and model; undefined when the prefix is no known provider. */
export function splitProviderModel(model: string): { provider: string; modelId: string } | undefined {
  const colon = model.indexOf(":");
  if (colon <= 0) return undefined;
  const provider = model.slice(0, colon);
  return Object.hasOwn(PROVIDERS, provider) ? { provider, modelId: model.slice(colon + 1) } : undefined;
}
