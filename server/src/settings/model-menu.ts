/** What `GET /api/models` answers (the page reads it too: this file imports nothing). */
export interface ModelMenu {
  /** The model the server was started with: a thread without settings uses it. */
  model: string | null;
  /** The models a thread may choose (the started one first). */
  models: string[];
  /** Whether a thread may be given settings at all (a model with `withSettings`). */
  settable: boolean;
  /** Whether the models can be switched (an AI SDK model is made for one model id: only sampling). */
  switchable: boolean;
  maxTemperature: number;
  /** Why the server's list could not be had (the started model is then the only choice). */
  listError?: string;
}
