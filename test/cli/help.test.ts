// --help of every command: its usage and options, each option documented in docs/cli.md; the list of
// commands; and `autograms` alone, a usage error that prints the same list.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { autogramsInProcess, cliTestFolder, root } from "./support/run-cli.js";

cliTestFolder("autograms-help-");

const MODEL_OPTIONS = [
  "--offline",
  "--offline-pace <ms>",
  "--model <name>",
  "--base-url <url>",
  "--api-key-env <VAR>",
  "--mcp-config <file>",
  "--approve-mcp",
];

const COMMANDS: [string, string, string[]][] = [
  ["compile", "<file>", ["-o, --out <file>", "-w, --watch", "--no-typecheck"]],
  [
    "graph",
    "<file>",
    ["-f, --format <format>", "-o, --out <file>", "--trace <file>", "--view <view>", "--link <style>"],
  ],
  [
    "chat",
    "<file>",
    [
      "--memory <file>",
      "--store [url]",
      "--thread <id>",
      "--busy <policy>",
      "--on-stale <policy>",
      "--watch",
      ...MODEL_OPTIONS,
      "--no-typecheck",
      "--stream",
      "--no-stream",
      "--trace <file>",
    ],
  ],
  ["threads", "[command]", []],
  [
    "serve",
    "<agent...>",
    [
      "--store <url>",
      "--port <n>",
      "--host <host>",
      "--token <token>",
      "--token-file <file>",
      "--allowed-host <name>",
      "--cors <origin>",
      "--lease-ms <ms>",
      "--grace-ms <ms>",
      "--resume-window-ms <ms>",
      "--workers <n>",
      "--turn-time-ms <ms>",
      "--turn-memory-mb <mb>",
      "--turn-wall-ms <ms>",
      "--busy <policy>",
      "--on-stale <policy>",
      "--watch",
      "--no-typecheck",
      "--prices <file>",
      "--titles",
      "--no-playground",
      ...MODEL_OPTIONS,
    ],
  ],
  [
    "mcp",
    "<file>",
    [
      "--http <port>",
      "--store <url>",
      "--token <token>",
      "--token-file <file>",
      "--allowed-host <name>",
      "--max-message-mb <mb>",
      "--call-timeout-ms <ms>",
      "--turn-time-ms <ms>",
      "--turn-memory-mb <mb>",
      ...MODEL_OPTIONS,
    ],
  ],
  ["mcp-types", "[agent]", ["--mcp-config <file>", "--approve-mcp", "-o, --out <file>"]],
  [
    "simulate",
    "<file>",
    [
      "-n, --conversations <N>",
      "-o, --out <dir>",
      "--max-turns <T>",
      "--seed <S>",
      ...MODEL_OPTIONS,
      "--trace <path>",
      "--coverage <file>",
    ],
  ],
  [
    "eval",
    "[command] <agent> [cases]",
    [
      "--concurrency <N>",
      "--repeat <N>",
      "--junit <file>",
      "--json <file>",
      "--compare <other>",
      "--threads [store]",
      "--since <date>",
      "--strict",
      "--judge-model <name>",
      "--store <url>",
      "--no-store",
      ...MODEL_OPTIONS,
    ],
  ],
  ["run", "<file> <function> [args...]", [...MODEL_OPTIONS, "--trace <file>"]],
  ["debug", "<file>", ["--replay <trace.jsonl>", "--conversation <n>", "-b, --break <spec>", ...MODEL_OPTIONS]],
  ["dap", "", ["--port <port>", "--host <address>"]],
  ["import", "<file.csv>", ["-o, --out <file>", "--agent <name>", "--tools <module>"]],
  ["export", "<file>", ["-o, --out <file>", "--format <format>"]],
  ["init", "[dir]", ["--name <name>", "--store", "--no-store", "--mcp", "--no-mcp", "--tarballs <dir>"]],
];

const STORE = "--store <url>";
const THREADS: [string, string, string[]][] = [
  ["threads list", "", [STORE, "--json", "--agent <file>", "--mcp-config <file>", "--approve-mcp"]],
  ["threads show", "<id>", [STORE, "--json"]],
  ["threads fork", "<id>", ["--at <N>", "--id <new-id>", STORE]],
  [
    "threads migrate",
    "<id>",
    ["--to <node>", "--agent <file>", "--take-prompt", "--mcp-config <file>", "--approve-mcp", STORE],
  ],
  ["threads export", "<id>", [STORE, "-o, --out <file>"]],
  ["threads delete", "<id>", [STORE, "-y, --yes"]],
  ["threads prune", "", ["--older-than <duration>", "--keep-turns <N>", STORE]],
];

const EVAL: [string, string, string[]][] = [
  ["eval list", "", [STORE, "--agent <name>", "--limit <N>", "--json"]],
  ["eval show", "<id>", ["--compare <id>", STORE, "--json"]],
];

const docs = readFileSync(join(root, "docs/cli.md"), "utf8");

/** The options a help text lists, as `-x, --long <arg>` or `--long [arg]` (without --help). */
const optionsOf = (help: string) =>
  [...help.split("\nOptions:\n")[1]!.matchAll(/^ {2}((?:-\w, )?--[\w-]+(?: <[^>]+>| \[[^\]]+\])?)/gm)]
    .map((m) => m[1]!)
    .filter((o) => !o.endsWith("--help"));

describe("help", () => {
  it.each([...COMMANDS, ...THREADS, ...EVAL])(
    "autograms %s --help lists its options, each documented in docs/cli.md",
    async (command, args, options) => {
      const r = await autogramsInProcess([...command.split(" "), "--help"]);
      expect(r.code).toBe(0);
      expect(r.stdout.startsWith(`Usage: autograms ${command} [options]${args ? ` ${args}` : ""}\n`)).toBe(true);
      expect(optionsOf(r.stdout)).toEqual(options);
      for (const option of options) {
        const long = option.match(/--[\w-]+/)![0];
        expect(docs, `docs/cli.md says nothing of ${command} ${long}`).toMatch(new RegExp(`\`[^\`]*${long}\\b`));
      }
      if (!command.includes(" ")) expect((await autogramsInProcess(["help", command])).stdout).toBe(r.stdout);
      expect(docs).toContain(`\`autograms ${command}`);
    },
  );

  it("autograms threads --help lists its commands", async () => {
    const r = await autogramsInProcess(["threads", "--help"]);
    const listed = [...r.stdout.split("\nCommands:\n")[1]!.matchAll(/^ {2}(\w+) /gm)].map((m) => m[1]);
    expect(listed).toEqual([...THREADS.map(([c]) => c.split(" ")[1]), "help"]);
  });

  it("autograms eval --help lists its commands", async () => {
    const r = await autogramsInProcess(["eval", "--help"]);
    const listed = [...r.stdout.split("\nCommands:\n")[1]!.matchAll(/^ {2}(\w+) /gm)].map((m) => m[1]);
    // No `help` command: `eval` runs an agent by itself, so a word after it is an agent's file.
    expect(listed).toEqual(EVAL.map(([c]) => c.split(" ")[1]));
  });

  it("lists every command with what it does, and each has a section in docs/cli.md", async () => {
    const r = await autogramsInProcess(["--help"]);
    expect(r.code).toBe(0);
    const listed = [...r.stdout.split("\nCommands:\n")[1]!.matchAll(/^ {2}([\w-]+) .*? {2,}(\S.*)$/gm)].map(
      (m) => m[1],
    );
    expect(listed).toEqual([...COMMANDS.map(([c]) => c), "help"]);
    expect(r.stdout).toMatch(/\n {2}chat \[options\] <file> +talk with an agent/);
    expect(r.stdout).toMatch(
      /\n {2}run \[options\] <file> <function> \[args\.\.\.\] +call one of an agent's functions/,
    );
    for (const [command] of COMMANDS) expect(docs).toContain(`\`autograms ${command}`);
  });

  it("autograms alone prints the same list on stderr, a usage error (exit 2)", async () => {
    const r = await autogramsInProcess([]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe((await autogramsInProcess(["--help"])).stdout);
    expect(r.stderr).toContain("`autograms` alone prints this help on stderr and exits 2");
  });

  it("an unknown command or option is a usage error with the help", async () => {
    const command = await autogramsInProcess(["chatt"]);
    expect(command.code).toBe(2);
    expect(command.stderr).toMatch(/^error: unknown command 'chatt'\n/);
    const option = await autogramsInProcess(["chat", "samples/tutor/agent.ts", "--offlin"]);
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(
      /^error: unknown option '--offlin'\n\(Did you mean --offline\?\)\n\nUsage: autograms chat /,
    );
  });
});
