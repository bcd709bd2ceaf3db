// Every sample type-checks under tsc --strict against the runtime's declarations, as the agent
// language promises (an editor shows the same errors).
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import ts from "typescript";
import { SAMPLES, SAMPLES_DIR, agentPath } from "./samples.js";

/**
 * The errors in the agent files themselves (and in the options); the runtime's own sources are
 * checked by its build, and checking only the agents keeps this quick.
 */
function messages(program: ts.Program, files: string[]): string[] {
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...files.flatMap((f) => ts.getPreEmitDiagnostics(program, program.getSourceFile(f))),
  ];
  return diagnostics.map((d) => {
    const where =
      d.file && d.start !== undefined
        ? `${d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: `
        : "";
    return `${where}${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
}

function samplesConfig(): ts.ParsedCommandLine {
  const configPath = join(SAMPLES_DIR, "tsconfig.json");
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, "\n"));
  return ts.parseJsonConfigFileContent(read.config, ts.sys, SAMPLES_DIR, undefined, configPath);
}

describe("samples type-check", () => {
  it("has the five samples a newcomer starts from", () => {
    expect(SAMPLES).toEqual(expect.arrayContaining(["algorithms", "interjections", "prompts", "recruiter", "tutor"]));
  });

  it("samples/tsconfig.json is strict and covers every sample", () => {
    const config = samplesConfig();
    expect(config.errors).toEqual([]);
    expect(config.options.strict).toBe(true);
    expect(config.fileNames.map((f) => f.replace(/\\/g, "/")).sort()).toEqual(
      SAMPLES.map((s) => agentPath(s).replace(/\\/g, "/")).sort(),
    );
  });

  // The second program reuses the first's unchanged files.
  let program: ts.Program | undefined;

  it("every sample compiles under tsc --strict with zero errors", () => {
    const config = samplesConfig();
    program = ts.createProgram(config.fileNames, config.options);
    expect(messages(program, config.fileNames)).toEqual([]);
  }, 60_000);

  it("the check can fail: a type error in an agent is reported", () => {
    const config = samplesConfig();
    const broken = join(SAMPLES_DIR, "tutor", "agent.ts");
    const host = ts.createCompilerHost(config.options);
    const readFile = host.readFile.bind(host);
    host.readFile = (f) =>
      f === broken
        ? (readFile(f) ?? "").replace("this.correct += 1;", 'this.correct += "one"; this.nonexistent();')
        : readFile(f);
    const changed = ts.createProgram({
      rootNames: [broken],
      options: config.options,
      host,
      ...(program ? { oldProgram: program } : {}),
    });
    expect(messages(changed, [broken]).map((m) => m.replace(/^.*?: /, ""))).toEqual(
      expect.arrayContaining([
        "Type 'string' is not assignable to type 'number'.",
        "Property 'nonexistent' does not exist on type 'FractionTutor'.",
      ]),
    );
  }, 60_000);

  it("exec_node of a custom action is typed as its output hook returns, with no cast", () => {
    // A port of a node class's get_variable_output (autograms/nodes/base_node.py:838 at commit
    // 243158a, any Python value) types the node's value from the output hook instead.
    const config = samplesConfig();
    const dir = join(SAMPLES_DIR, "custom-action");
    const file = join(dir, "typed-output.ts");
    const source = `import { Autogram, chatExact, defineAction, exec_node } from "@autograms/runtime";
const count = defineAction({ name: "count", output: (ctx) => ({ words: ctx.instruction.split(" ").length, said: ctx.userReply }) });
const plain = defineAction({ name: "plain" });
export default class Typed extends Autogram {
  main() {
    const counted = exec_node({ action: count, instruction: "a b c" });
    const words: number = counted.words;
    const said: string | null = counted.said;
    const wrong: string = exec_node({ action: count });
    const anything = exec_node({ action: plain });
    chatExact(\`\${words} \${said} \${wrong} \${JSON.stringify(anything)}\`);
  }
}
`;
    const host = ts.createCompilerHost(config.options);
    const readFile = host.readFile.bind(host);
    const fileExists = host.fileExists.bind(host);
    host.readFile = (f) => (f === file ? source : readFile(f));
    host.fileExists = (f) => f === file || fileExists(f);
    const typed = ts.createProgram({
      rootNames: [file],
      options: config.options,
      host,
      ...(program ? { oldProgram: program } : {}),
    });
    // Only the deliberate mistake: the object the output hook returns is not a string.
    expect(messages(typed, [file]).map((m) => m.replace(/^.*?: /, ""))).toEqual([
      "Type '{ words: number; said: string | null; }' is not assignable to type 'string'.",
    ]);
  }, 60_000);
});
