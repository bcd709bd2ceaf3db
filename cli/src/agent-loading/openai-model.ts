// Imported on its own so that a command loads the OpenAI client only when it talks to a server.
export { OpenAIModel } from "@autograms/runtime";
