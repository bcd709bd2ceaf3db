// The samples' recorded conversations (samples/*/conversation.json) and the model each one needs.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import type { ChatModel } from "@autograms/runtime";
import { OfflineModel, ScriptedModel } from "../../runtime/src/model/index.js";

export interface Conversation {
  model: "offline" | "scripted" | "none";
  turns?: { user: string; agent: string | null; complete?: string[]; choose?: string[] }[];
  calls?: { function: string; args: unknown[]; result: unknown }[];
  finalGlobals?: Record<string, unknown>;
}

const root = new URL("../../samples/", import.meta.url);
export const recordedSamples = readdirSync(root).filter((d) => existsSync(new URL(`${d}/conversation.json`, root)));
export const readSample = <T>(path: string): T => JSON.parse(readFileSync(new URL(path, root), "utf8")) as T;

const refuse: ChatModel = {
  complete: async () => {
    throw new Error("this sample uses no model");
  },
  choose: async () => {
    throw new Error("this sample uses no model");
  },
};

export function modelFor(c: Conversation): ChatModel {
  if (c.model === "offline") return new OfflineModel();
  if (c.model === "scripted") {
    return new ScriptedModel({
      complete: c.turns!.flatMap((t) => t.complete ?? []),
      choose: c.turns!.flatMap((t) => t.choose ?? []),
    });
  }
  return refuse;
}
