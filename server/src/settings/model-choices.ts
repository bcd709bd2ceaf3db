/**
 * What a thread's model settings may choose among: the models of the server or provider the
 * server was started with (an OpenAI-compatible server's `GET /models`, asked now and then, not
 * for every request), and whether its sampling can be set at all (the offline model's cannot).
 */
import { MAX_TEMPERATURE, settingsProblem, type ChatModel, type ModelSettings } from "@autograms/runtime";
import type { ModelMenu } from "./model-menu.js";

/** How long a list of the server's models is used before it is asked again. */
const LIST_TTL_MS = 60_000;
/** How long the server's `GET /models` may take. */
const LIST_TIMEOUT_MS = 10_000;

export class ModelChoices {
  private listed: { at: number; names: Promise<string[]> } | null = null;

  constructor(private readonly model: () => ChatModel) {}

  async menu(): Promise<ModelMenu> {
    const model = this.model();
    const name = model.model ?? null;
    const settable = typeof model.withSettings === "function";
    // Without a list of the server's models, the started one is the only choice.
    const fixed = {
      model: name,
      settable,
      maxTemperature: MAX_TEMPERATURE,
      switchable: false,
      models: name === null ? [] : [name],
    };
    if (!settable || typeof model.listModels !== "function") return fixed;
    try {
      const names = await this.names(model);
      return { ...fixed, switchable: true, models: name === null || names.includes(name) ? names : [name, ...names] };
    } catch (err) {
      return { ...fixed, listError: err instanceof Error ? err.message : String(err) };
    }
  }

  /** What is wrong with `settings` for this server, naming the field; undefined when nothing is. */
  async problem(settings: unknown): Promise<{ field: string; message: string } | undefined> {
    const shape = settingsProblem(settings);
    if (shape) return shape;
    const menu = await this.menu();
    if (!menu.settable)
      return {
        field: "",
        message: `the model the server was started with${menu.model ? ` ('${menu.model}')` : ""} takes no settings`,
      };
    const { model } = settings as ModelSettings;
    if (model !== undefined && model !== menu.model && !(menu.switchable && menu.models.includes(model)))
      return { field: "model", message: `must be one of the server's models: ${menu.models.join(", ")}` };
    return undefined;
  }

  private names(model: ChatModel): Promise<string[]> {
    const now = Date.now();
    if (!this.listed || now - this.listed.at > LIST_TTL_MS) {
      const names = model.listModels!(AbortSignal.timeout(LIST_TIMEOUT_MS));
      this.listed = { at: now, names };
      // A failed list is asked again next time, not kept for the whole minute.
      names.catch(() => {
        if (this.listed?.names === names) this.listed = null;
      });
    }
    return this.listed.names;
  }
}
