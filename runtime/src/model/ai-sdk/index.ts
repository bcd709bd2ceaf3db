// `@autograms/runtime/ai-sdk`: models of the AI SDK's provider specification. A subpath of its own,
// so that the main entry's types do not need @ai-sdk/provider, an optional peer dependency.
export { AiSdkModel } from "./ai-sdk-model.js";
export type { AiSdkModelOptions } from "./options.js";
