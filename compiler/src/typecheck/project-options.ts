import { join } from "node:path";
import type TS from "typescript";
import { typescript } from "../phases/1-parse/typescript.js";

export interface ProjectOptions {
  options: TS.CompilerOptions;
  /**
   * The project's declaration files (`mcp-tools.d.ts`, a `global.d.ts`): checked with the agent
   * since they declare what it imports. The project's other sources are reached through the
   * agent's imports only, so a large project is not checked whole.
   */
  declarations: string[];
  /** Which project: a program is reused only for the same one. */
  key: string;
  /** The tsconfig.json's own errors, as TypeScript words them, with the file. */
  problems: string[];
}

/**
 * A project without a tsconfig.json is checked as the starter's is: strict, Node's ES modules,
 * libraries' own declarations trusted; without every installed `@types` package (agent code runs
 * in the evaluator, never in Node), which would be most of the time the check takes.
 */
const DEFAULTS = {
  target: "ES2022",
  lib: ["ES2023"],
  module: "NodeNext",
  moduleResolution: "NodeNext",
  strict: true,
  skipLibCheck: true,
  isolatedModules: true,
  types: [],
} as const;

/**
 * The compiler options of the tsconfig.json nearest to `dir` (its `extends` followed), or the
 * defaults. Nothing is emitted whatever the file says.
 */
export function projectOptions(dir: string): ProjectOptions {
  const ts = typescript();
  const configPath = ts.findConfigFile(dir, ts.sys.fileExists, "tsconfig.json");
  if (configPath === undefined) {
    const parsed = ts.convertCompilerOptionsFromJson(DEFAULTS, dir);
    return { options: { ...parsed.options, noEmit: true }, declarations: [], key: "defaults", problems: [] };
  }
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(
    read.config ?? {},
    ts.sys,
    join(configPath, ".."),
    undefined,
    configPath,
  );
  const options: TS.CompilerOptions = { ...parsed.options, noEmit: true, configFilePath: configPath };
  // Options that would make the program write or track files: a check writes nothing.
  for (const key of ["composite", "incremental", "tsBuildInfoFile", "declaration", "emitDeclarationOnly"] as const)
    delete options[key];
  const problems = [...(read.error ? [read.error] : []), ...parsed.errors]
    .filter((d) => d.category === ts.DiagnosticCategory.Error)
    // TS18003, no inputs: the agent is the input, whatever the file's include says.
    .filter((d) => d.code !== 18003)
    .map((d) => `${configPath}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")} (TS${d.code})`);
  return {
    options,
    declarations: parsed.fileNames.filter((f) => /\.d\.[cm]?ts$/.test(f)),
    key: configPath,
    problems,
  };
}
