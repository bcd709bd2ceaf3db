// Reads the corpus that gen_corpus.py writes (see its docstring for the tags) and checks one case.
import {
  buildReactPrompt,
  parseLatestPluginCall,
  pythonJsonDumps,
  PyFloat,
  UnsupportedArgsFormatError,
  type ChatTurn,
  type PluginInfo,
} from "../../runtime/src/tool-text/index.js";
import { expect } from "vitest";

export type CorpusCase =
  | { kind: "meta"; python: string; seed: number; whitespace: number[] }
  | { kind: "build"; history: [string, string][]; plugins: PluginInfo[]; prompt?: string; error?: string }
  | { kind: "parse"; text: string; name: string; args: string; rest: string }
  | { kind: "dumps"; value: unknown; json: string };

export function readCorpus(text: string): CorpusCase[] {
  return text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as CorpusCase);
}

const floatOf = (f: number | string) =>
  f === "nan" ? NaN : f === "inf" ? Infinity : f === "-inf" ? -Infinity : Number(f);

/** The JavaScript value that stands for the tagged Python value. */
export function decode(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(decode);
  if (v === null || typeof v !== "object") return v;
  const o = v as Record<string, unknown>;
  if ("$float" in o) return new PyFloat(floatOf(o.$float as number | string));
  if ("$int" in o) return BigInt(o.$int as string);
  if ("$map" in o) return new Map((o.$map as [unknown, unknown][]).map(([k, x]) => [decode(k), decode(x)]));
  // fromEntries defines "__proto__" as an own key, as JSON.parse did.
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, decode(x)]));
}

/** Checks one case; `label` names it in a failure. */
export function checkCase(c: CorpusCase, label: string): void {
  switch (c.kind) {
    case "meta":
      return;
    case "build": {
      const plugins = c.plugins.map((p) => ({ ...p, parameters: decode(p.parameters) }));
      const run = () => buildReactPrompt(c.history as ChatTurn[], plugins);
      if (c.error) expect(run, label).toThrow(UnsupportedArgsFormatError);
      else expect(run(), label).toBe(c.prompt);
      return;
    }
    case "parse":
      expect(parseLatestPluginCall(c.text), label).toEqual({ name: c.name, args: c.args, text: c.rest });
      return;
    case "dumps":
      expect(pythonJsonDumps(decode(c.value)), label).toBe(c.json);
      return;
  }
}
