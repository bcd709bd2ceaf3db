import { dirname, join, resolve } from "node:path";
import { SANDBOX_SURFACE } from "@autograms/sandbox";
import type TS from "typescript";
import { typescript } from "../phases/1-parse/typescript.js";

/**
 * A compiler host for checking one agent file, whose text is the one compiled (even if the file
 * changed on disk since). A library is read only as far as its own package goes: what a file of
 * another package than the agent's imports from a third (the runtime's imports of its model
 * clients, and their `@types/node`) is left unresolved, typed `any`, whether the library is
 * installed (declarations) or mapped to its sources by a tsconfig's `paths`. Agent code never
 * reaches those types, and the libraries' own errors are not reported anyway, so the check sees
 * what it needs and the program holds a few dozen files, not hundreds.
 */
export function agentHost(path: string, sourceText: string, options: TS.CompilerOptions): TS.CompilerHost {
  const ts = typescript();
  const host = ts.createCompilerHost(options, true);
  const getSourceFile = host.getSourceFile;
  const globals = agentGlobalsFile(path);
  host.getSourceFile = (name, language, onError, createNew) =>
    resolve(name) === path
      ? ts.createSourceFile(name, sourceText, language, true)
      : resolve(name) === globals
        ? ts.createSourceFile(name, agentGlobals(), language, true)
        : getSourceFile.call(host, name, language, onError, createNew);
  const cache = ts.createModuleResolutionCache(host.getCurrentDirectory(), (name) => name, options);
  const own = packageOf(path);
  const foreign = (file: string) => packageOf(file) !== own;
  host.resolveModuleNameLiterals = (literals, containing, redirected, compilerOptions, file) =>
    literals.map((literal) => {
      const mode = ts.getModeForUsageLocation(file, literal, compilerOptions);
      const found = ts.resolveModuleName(literal.text, containing, compilerOptions, host, cache, redirected, mode);
      const target = found.resolvedModule?.resolvedFileName;
      return target && foreign(containing) && packageOf(target) !== packageOf(containing)
        ? { resolvedModule: undefined }
        : found;
    });
  host.resolveTypeReferenceDirectiveReferences = (references, containing, redirected, compilerOptions) =>
    references.map((reference) =>
      foreign(containing)
        ? { resolvedTypeReferenceDirective: undefined }
        : ts.resolveTypeReferenceDirective(
            typeof reference === "string" ? reference : reference.fileName.toLowerCase(),
            containing,
            compilerOptions,
            host,
            redirected,
          ),
    );
  return host;
}

/**
 * The declarations of what the evaluator gives agent code beyond the standard library: its
 * console, which a project without Node's or the DOM's types does not declare. Written as
 * interface members, so they merge with those where a project has them.
 */
export function agentGlobalsFile(agentPath: string): string {
  return join(dirname(agentPath), "__autograms_agent_globals.d.ts");
}

function agentGlobals(): string {
  const console = SANDBOX_SURFACE.namespaces.get("console")?.functions ?? [];
  const members = [...console].map((name) => `  ${name}(...data: unknown[]): void;`).join("\n");
  return `interface Console {\n${members}\n}\ndeclare var console: Console;\n`;
}

const packages = new Map<string, string>();

/** The folder of the package.json nearest to a file: which package it belongs to. */
function packageOf(file: string): string {
  const ts = typescript();
  const start = dirname(file);
  let dir = start;
  for (;;) {
    const known = packages.get(dir);
    if (known !== undefined) return known;
    const up = dirname(dir);
    if (ts.sys.fileExists(join(dir, "package.json")) || up === dir) {
      packages.set(start, dir);
      return dir;
    }
    dir = up;
  }
}
