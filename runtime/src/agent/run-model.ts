/** The model a run calls when it is given settings (`RunOptions.modelSettings`). */
import { AgentError } from "../errors.js";
import { settingsProblem } from "../model/settings.js";
import type { ChatModel, ModelSettings } from "../model/types.js";

export function withSettings(model: ChatModel, settings: ModelSettings): ChatModel {
  const problem = settingsProblem(settings);
  if (problem)
    throw new AgentError("bad_input", `modelSettings${problem.field ? `.${problem.field}` : ""} ${problem.message}`);
  if (typeof model.withSettings !== "function")
    throw new AgentError(
      "bad_input",
      `modelSettings: the model${model.model ? ` '${model.model}'` : ""} takes no settings (it has no withSettings())`,
    );
  try {
    return model.withSettings(settings);
  } catch (err) {
    throw new AgentError("bad_input", `modelSettings: ${err instanceof Error ? err.message : String(err)}`);
  }
}
