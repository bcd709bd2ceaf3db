/**
 * A tool as the ReAct prompt describes it (the seed's `plugin_info` dict, with its key names, so
 * plugin lists written for the original load unchanged).
 */
export interface PluginInfo {
  name_for_model: string;
  name_for_human: string;
  description_for_model: string;
  /** Written into the prompt as Python's json.dumps(..., ensure_ascii=False) writes it. */
  parameters: unknown;
  /** "json" (the default when absent) or "code"; anything else is refused. */
  args_format?: string | null;
}

/** One past turn: the user's query and the assistant's response. */
export type ChatTurn = readonly [query: string, response: string];

/** The latest tool call found in a model's text; `name` and `args` are empty when there is none. */
export interface PluginCall {
  name: string;
  args: string;
  /** The text up to the call's Observation marker (the whole text when there is no call). */
  text: string;
}

/** A plugin's args_format is neither "json" nor "code" (the seed raises NotImplementedError). */
export class UnsupportedArgsFormatError extends Error {
  constructor(
    readonly plugin: string,
    readonly argsFormat: unknown,
  ) {
    super(
      `tool "${plugin}": args_format ${JSON.stringify(argsFormat) ?? String(argsFormat)} is not supported (use "json" or "code")`,
    );
    this.name = "UnsupportedArgsFormatError";
  }
}
