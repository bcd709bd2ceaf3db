/// <reference types="node" preserve="true" />
// `@autograms/runtime/ai-sdk`: models of the AI SDK's provider specification, v3 and v4. Its types
// are the runtime's own (spec.ts): they need no @ai-sdk/provider.
export { AiSdkModel } from "./ai-sdk-model.js";
export type { AiSdkModelOptions } from "./options.js";
