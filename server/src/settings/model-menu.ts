import { z } from "zod";

/** What `GET /api/models` answers (the page reads it too). */
export const ModelMenu = z.object({
  /** The model the server was started with: a thread without settings uses it. */
  model: z.string().nullable(),
  /** The models a thread may choose (the started one first). */
  models: z.array(z.string()),
  /** A model with `withSettings`. */
  settable: z.boolean().meta({ description: "whether a thread may be given settings at all" }),
  /** An AI SDK model is made for one model id: only its sampling can be set. */
  switchable: z.boolean().meta({ description: "whether the model may be switched, not only sampling" }),
  maxTemperature: z.number(),
  /** The started model is then the only choice. */
  listError: z.string().optional().meta({ description: "why the server's list of models could not be had" }),
});
export type ModelMenu = z.infer<typeof ModelMenu>;
