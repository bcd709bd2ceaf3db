/**
 * Reads a cases file (JSON Lines, or YAML by its extension) into cases, each part with its line.
 * Shape problems are reported at their line with the schema's words; what needs the agent (node
 * names, variables) is checked by `checkCases`.
 */
import { createRequire } from "node:module";
import type { ValidateFunction } from "ajv";
import { LineCounter, isMap, isSeq, parseDocument, type Node as YamlNode } from "yaml";
import type { JsonValue } from "@autograms/graph";
import { entrySchema } from "./case-schema.js";
import type { CasesFile, EvalCase, ScorerRef, TurnCase, TurnExpectations } from "./cases.js";
import { fileProblem } from "./messages.js";

type Path = (string | number)[];

/** One entry of the file: its value, and the line of any part of it by its path. */
interface Entry {
  value: Record<string, unknown>;
  line: number;
  lineOf(path: Path): number;
}

export function readCases(file: string, text: string): CasesFile {
  const entries = /\.ya?ml$/i.test(file) ? yamlEntries(file, text) : jsonLineEntries(file, text);
  const cases: EvalCase[] = [];
  const fileScorers: ScorerRef[] = [];
  let settingsLine: number | undefined;
  const named = new Map<string, number>();
  for (const entry of entries) {
    checkShape(file, entry);
    const v = entry.value;
    if ("settings" in v) {
      if (settingsLine !== undefined) throw fileProblem("settings_twice", { file, line: entry.line });
      settingsLine = entry.line;
      fileScorers.push(...scorerRefs((v.settings as { scorers?: string[] }).scorers));
      continue;
    }
    const name = v.name as string;
    const before = named.get(name);
    if (before !== undefined) throw fileProblem("duplicate_name", { file, line: entry.line }, name, before);
    named.set(name, entry.line);
    cases.push(toCase(entry));
  }
  // The file's scorers score every case, whichever comes first in the file.
  for (const c of cases) c.scorers.unshift(...fileScorers);
  return { file, cases };
}

function toCase(entry: Entry): EvalCase {
  const v = entry.value as Record<string, any>;
  const base = {
    name: v.name as string,
    line: entry.line,
    vars: (v.vars ?? {}) as Record<string, JsonValue>,
    scorers: scorerRefs(v.scorers),
  };
  if (v.simulate) {
    const expect = v.expect ?? {};
    return {
      ...base,
      turns: [],
      simulate: {
        maxTurns: v.simulate.maxTurns ?? 20,
        seed: v.simulate.seed ?? 1,
        expect: { ...expect, scorers: scorerRefs(expect.scorers) },
      },
    };
  }
  const turns: TurnCase[] = (v.turns as Record<string, any>[]).map((t, i) => {
    const expect: TurnExpectations = { ...(t.expect ?? {}) };
    if (t.expect?.scorers) expect.scorers = scorerRefs(t.expect.scorers);
    const lines: Record<string, number> = {};
    for (const key of Object.keys(expect)) lines[key] = entry.lineOf(["turns", i, "expect", key]);
    return { user: t.user ?? "", expect, line: entry.lineOf(["turns", i]), lines };
  });
  return { ...base, turns };
}

/** `MODULE#EXPORT` (no `#EXPORT`: the default export). */
function scorerRefs(refs: string[] | undefined): ScorerRef[] {
  return (refs ?? []).map((ref) => {
    const at = ref.lastIndexOf("#");
    return at > 0 ? { module: ref.slice(0, at), name: ref.slice(at + 1) } : { module: ref, name: "default" };
  });
}

let compiler: { compile(schema: object): ValidateFunction } | undefined;
const validators = new Map<object, ValidateFunction>();

function checkShape(file: string, entry: Entry): void {
  const schema = entrySchema(entry.value);
  if (!compiler) {
    const { Ajv2020 } = createRequire(import.meta.url)("ajv/dist/2020.js");
    compiler = new Ajv2020({ allErrors: false, strict: false });
  }
  let validate = validators.get(schema);
  if (!validate) validators.set(schema, (validate = compiler!.compile(schema)));
  if (validate(entry.value)) return;
  const error = validate.errors![0]!;
  const path: Path = error.instancePath
    .split("/")
    .slice(1)
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p.replace(/~1/g, "/").replace(/~0/g, "~")));
  const extraKey =
    error.params && "additionalProperty" in error.params ? String(error.params.additionalProperty) : null;
  const extra = extraKey === null ? "" : ` '${extraKey}'`;
  // An unknown key is reported at its own line.
  if (extraKey !== null) path.push(extraKey);
  const where = error.instancePath ? `${error.instancePath.slice(1).replace(/\//g, ".")} ` : "";
  throw fileProblem(
    "bad_entry",
    { file, line: entry.lineOf(path) },
    `${where}${error.message ?? "is invalid"}${extra}`,
  );
}

function jsonLineEntries(file: string, text: string): Entry[] {
  const entries: Entry[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    if (!raw.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (err) {
      throw fileProblem("not_json", { file, line }, (err as Error).message);
    }
    if (value === null || typeof value !== "object" || Array.isArray(value))
      throw fileProblem("bad_entry", { file, line }, "each line is a JSON object");
    entries.push({ value: value as Record<string, unknown>, line, lineOf: () => line });
  });
  return entries;
}

function yamlEntries(file: string, text: string): Entry[] {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false });
  const lineAt = (node: YamlNode | null | undefined, fallback: number) =>
    node?.range ? counter.linePos(node.range[0]).line : fallback;
  if (doc.errors.length) {
    const e = doc.errors[0]!;
    throw fileProblem("not_yaml", { file, line: counter.linePos(e.pos[0]).line }, e.message.split("\n")[0]!);
  }
  const root = doc.contents;
  let items: { node: YamlNode; prefix: Path }[];
  if (isSeq(root)) items = root.items.map((node, i) => ({ node: node as YamlNode, prefix: [i] }));
  else if (isMap(root) && (root.has("cases") || root.has("settings"))) {
    const unknown = root.items.find(
      (p) => !["cases", "settings"].includes(String((p.key as { value?: unknown })?.value)),
    );
    if (unknown) throw fileProblem("not_a_list", { file, line: lineAt(unknown.key as YamlNode, 1) });
    const cases = root.get("cases", true);
    items = [];
    if (root.has("settings")) items.push({ node: root.get("settings", true) as YamlNode, prefix: ["settings"] });
    if (cases !== undefined) {
      if (!isSeq(cases)) throw fileProblem("not_a_list", { file, line: lineAt(cases as YamlNode, 1) });
      items.push(...cases.items.map((node, i) => ({ node: node as YamlNode, prefix: ["cases", i] as Path })));
    }
  } else if (root === null) items = [];
  else throw fileProblem("not_a_list", { file, line: lineAt(root, 1) });
  return items.map(({ node, prefix }) => {
    const line = lineAt(node, 1);
    const isSettings = prefix[0] === "settings";
    const value = isSettings ? { settings: node.toJSON() } : node.toJSON();
    if (value === null || typeof value !== "object" || Array.isArray(value))
      throw fileProblem("bad_entry", { file, line }, "a case is a map (name, vars, turns)");
    const lineOf = (path: Path) => {
      // The deepest part of the path that is there: a missing key is reported at its parent.
      for (let n = path.length; n >= 0; n--) {
        const inner = isSettings ? path.slice(1, n) : path.slice(0, n);
        const found = doc.getIn([...prefix, ...inner], true) as YamlNode | undefined;
        if (found && typeof found === "object" && "range" in found) return lineAt(found, line);
      }
      return line;
    };
    return { value: value as Record<string, unknown>, line, lineOf };
  });
}
