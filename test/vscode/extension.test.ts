// The VS Code extension in vscode/: packaged into a .vsix by @vscode/vsce, its manifest read back
// from the package, its debug adapter descriptor made with a stand-in for the `vscode` module and
// started (it answers a DAP initialize over stdio), and its problem matcher run against what the
// compiler really prints. VS Code itself cannot run here.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inflateRawSync } from "node:zlib";
import { autogramsInProcess, root } from "../cli/support/run-cli.js";

const extensionDir = join(root, "vscode");
const extension = createRequire(import.meta.url)(join(extensionDir, "extension.js")) as {
  activate(context: { subscriptions: unknown[] }, vscode: unknown): void;
};

/** The files of a zip archive (a .vsix), by name. */
function unzip(zip: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < zip.readUInt16LE(end + 10); i++) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.toString("utf8", at + 46, at + 46 + nameLength);
    const local = zip.readUInt32LE(at + 42);
    const data = zip
      .subarray(local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28))
      .subarray(0, size);
    files.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return files;
}

/** A stand-in for the parts of the `vscode` module the extension uses, recording what it gets. */
function fakeVscode() {
  const registered: Record<string, unknown> = {};
  class DebugAdapterExecutable {
    constructor(
      readonly command: string,
      readonly args: string[],
      readonly options: { cwd: string },
    ) {}
  }
  class ShellExecution {
    constructor(
      readonly command: string,
      readonly args: string[],
    ) {}
  }
  class Task {
    group: unknown;
    constructor(
      readonly definition: unknown,
      readonly scope: unknown,
      readonly name: string,
      readonly source: string,
      readonly execution: ShellExecution,
      readonly problemMatchers: string[],
    ) {}
  }
  const api = {
    DebugAdapterExecutable,
    ShellExecution,
    Task,
    TaskScope: { Workspace: "workspace" },
    TaskGroup: { Build: "build" },
    debug: {
      registerDebugAdapterDescriptorFactory: (type: string, f: unknown) => (
        (registered[`debug:${type}`] = f), { dispose() {} }
      ),
    },
    tasks: { registerTaskProvider: (type: string, p: unknown) => ((registered[`task:${type}`] = p), { dispose() {} }) },
    workspace: {
      findFiles: async () => [{ fsPath: join(root, "samples/tutor/agent.ts") }],
      getWorkspaceFolder: () => "folder",
      asRelativePath: () => "samples/tutor/agent.ts",
    },
  };
  return { api, registered };
}

let temp: string;
let files: Map<string, Buffer>;

beforeAll(() => {
  const buildError = inject("cliBuildError");
  if (buildError) throw new Error(buildError);
  temp = mkdtempSync(join(tmpdir(), "autograms-vscode-"));
  const vsix = join(temp, "autograms.vsix");
  execFileSync(
    process.execPath,
    [join(root, "node_modules/@vscode/vsce/vsce"), "package", "--no-dependencies", "-o", vsix],
    { cwd: extensionDir, stdio: "pipe" },
  );
  files = unzip(readFileSync(vsix));
}, 120_000);
afterAll(() => temp && rmSync(temp, { recursive: true, force: true }));

describe("the VS Code extension", () => {
  it("packages into a .vsix holding the extension, its manifest and license, and nothing else", () => {
    expect([...files.keys()].sort()).toEqual([
      "[Content_Types].xml",
      "extension.vsixmanifest",
      "extension/LICENSE.txt",
      "extension/extension.js",
      "extension/package.json",
      "extension/readme.md",
    ]);
    expect(files.get("extension.vsixmanifest")!.toString()).toMatch(
      /<Identity [^>]*Id="autograms"[^>]*Version="0\.1\.0"[^>]*Publisher="autograms"/,
    );
  });

  it("contributes the autograms debug type with the adapter's launch attributes, the problem matcher and the task", () => {
    const manifest = JSON.parse(files.get("extension/package.json")!.toString()) as {
      main: string;
      activationEvents: string[];
      contributes: {
        debuggers: {
          type: string;
          configurationAttributes: { launch: { required: string[]; properties: Record<string, unknown> } };
        }[];
        problemMatchers: { name: string }[];
        taskDefinitions: { type: string; required: string[] }[];
        breakpoints: { language: string }[];
      };
    };
    expect(manifest.main).toBe("./extension.js");
    expect(manifest.activationEvents).toContain("onDebugResolve:autograms");
    const [debuggerEntry] = manifest.contributes.debuggers;
    expect(debuggerEntry!.type).toBe("autograms");
    expect(debuggerEntry!.configurationAttributes.launch.required).toEqual(["program"]);
    // The launch attributes the adapter reads (docs/debugging.md), no more, no less.
    expect(Object.keys(debuggerEntry!.configurationAttributes.launch.properties).sort()).toEqual([
      "apiKeyEnv",
      "baseUrl",
      "conversation",
      "cwd",
      "mcpConfig",
      "model",
      "offline",
      "program",
      "replay",
      "stopOnEntry",
      "userInputs",
    ]);
    expect(manifest.contributes.breakpoints).toEqual([{ language: "typescript" }]);
    expect(manifest.contributes.problemMatchers.map((m) => m.name)).toEqual(["autograms"]);
    expect(manifest.contributes.taskDefinitions).toEqual([
      expect.objectContaining({ type: "autograms", required: ["file"] }),
    ]);
  });

  it("starts the project's own `autograms dap` over stdio, which answers a DAP initialize", async () => {
    const { api, registered } = fakeVscode();
    extension.activate({ subscriptions: [] }, api);
    const factory = registered["debug:autograms"] as {
      createDebugAdapterDescriptor(s: unknown): { command: string; args: string[]; options: { cwd: string } };
    };
    const descriptor = factory.createDebugAdapterDescriptor({
      configuration: { cwd: root },
      workspaceFolder: undefined,
    });
    expect(descriptor).toMatchObject({
      command: "node",
      args: [join(realpathSync(join(root, "node_modules/@autograms/cli")), "bin/autograms.js"), "dap"],
      options: { cwd: root },
    });

    const child = spawn(process.execPath, descriptor.args, { cwd: descriptor.options.cwd });
    const request = JSON.stringify({
      seq: 1,
      type: "request",
      command: "initialize",
      arguments: { adapterID: "autograms", pathFormat: "path", linesStartAt1: true, columnsStartAt1: true },
    });
    child.stdin.write(`Content-Length: ${Buffer.byteLength(request)}\r\n\r\n${request}`);
    let out = "";
    const response = await new Promise<{ success: boolean; command: string; body: Record<string, unknown> }>(
      (resolve, reject) => {
        child.on("error", reject);
        child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
          out += chunk;
          const m = out.match(/Content-Length: (\d+)\r\n\r\n/);
          if (m && Buffer.byteLength(out.slice(m.index! + m[0].length)) >= Number(m[1]))
            resolve(JSON.parse(out.slice(m.index! + m[0].length)));
        });
      },
    ).finally(() => child.kill());
    expect(response).toMatchObject({ success: true, command: "initialize" });

    const elsewhere = factory.createDebugAdapterDescriptor.bind(factory, {
      configuration: {},
      workspaceFolder: { uri: { fsPath: temp } },
    });
    expect(elsewhere).toThrow(`AutoGRAMS: @autograms/cli is not installed in ${temp}`);
  });

  it("offers a compile task for each agent.ts, its output read by the $autograms matcher", async () => {
    const { api, registered } = fakeVscode();
    extension.activate({ subscriptions: [] }, api);
    const provider = registered["task:autograms"] as {
      provideTasks(): Promise<
        { name: string; execution: { command: string; args: string[] }; problemMatchers: string[] }[]
      >;
    };
    const [task] = await provider.provideTasks();
    expect(task).toMatchObject({
      name: "compile samples/tutor/agent.ts",
      execution: { command: "npx", args: ["autograms", "compile", "samples/tutor/agent.ts"] },
      problemMatchers: ["$autograms"],
    });
  });

  it("the problem matcher's pattern reads every diagnostic the compiler prints: file, line, column, severity, code, message", async () => {
    const manifest = JSON.parse(readFileSync(join(extensionDir, "package.json"), "utf8")) as {
      contributes: { problemMatchers: { pattern: Record<string, string | number> }[] };
    };
    const { regexp, ...groups } = manifest.contributes.problemMatchers[0]!.pattern;
    const pattern = new RegExp(regexp as string);
    const agent = join(temp, "broken agent.ts");
    writeFileSync(
      agent,
      [
        'import { Autogram, chat, exec_node, func } from "@autograms/runtime";',
        "export default class Broken extends Autogram {",
        "  count = 0;",
        "  main() {",
        '    exec_node({ action: "chat", name: "a", instruction: "hi", transitions: ["nowhere"] });',
        '    if (this.count === undefined) { chat("odd"); }',
        "    this.bump();",
        "  }",
        "  @func bump() { this.count = 1; }",
        "}",
      ].join("\n"),
    );
    const r = await autogramsInProcess(["compile", "broken agent.ts"], { cwd: temp });
    expect(r.code).toBe(1);
    const headings = r.stderr.split("\n").filter((l) => / - (error|warning) /.test(l));
    expect(headings.length).toBeGreaterThanOrEqual(3);
    const matched = headings.map((line) => {
      const m = pattern.exec(line);
      expect(m, line).not.toBeNull();
      return Object.fromEntries(Object.entries(groups).map(([k, i]) => [k, m![i as number]]));
    });
    for (const m of matched) expect(m.file).toBe("broken agent.ts");
    expect(matched.map((m) => m.severity)).toEqual(expect.arrayContaining(["error", "warning"]));
    expect(matched).toContainEqual(
      expect.objectContaining({ line: "5", severity: "error", code: "transition_to_missing_node" }),
    );
    // The summary line after the diagnostics is not one of them.
    expect(r.stderr.split("\n").filter((l) => pattern.test(l))).toHaveLength(headings.length);
  });
});
