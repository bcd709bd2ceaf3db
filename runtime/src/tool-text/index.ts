export { buildReactPrompt } from "./prompt.js";
export { parseLatestPluginCall } from "./parse.js";
export { pythonJsonDumps, pythonFloatRepr, PyFloat } from "./python-json.js";
export { UnsupportedArgsFormatError } from "./types.js";
export type { PluginInfo, PluginCall, ChatTurn } from "./types.js";
