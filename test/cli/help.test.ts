// --help of chat, run and simulate: every option the commands take, exit 0.
import { describe, expect, it } from "vitest";
import { autograms, cliTestFolder } from "./support/run-cli.js";

cliTestFolder("autograms-help-");

const MODEL_OPTIONS = ["--offline", "--model <name>", "--base-url <url>", "--api-key-env <VAR>"];

describe("help", () => {
  it.each([
    ["chat", "Usage: autograms chat [options] <file>", ["--memory <file>", "--trace <file>", ...MODEL_OPTIONS]],
    ["run", "Usage: autograms run [options] <file> <function> [args...]", ["--trace <file>", ...MODEL_OPTIONS]],
    ["simulate", "Usage: autograms simulate [options] <file>",
      ["-n, --conversations <N>", "-o, --out <dir>", "--max-turns <T>", "--seed <S>", "--trace <path>", "--coverage <file>", ...MODEL_OPTIONS]],
  ])("autograms %s --help", async (command, usage, options) => {
    const r = await autograms([command, "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith(`${usage}\n`)).toBe(true);
    for (const option of options) expect(r.stdout).toContain(`  ${option} `);
  });

  it("lists the three commands with what they do", async () => {
    const r = await autograms(["--help"]);
    expect(r.stdout).toMatch(/\n {2}chat \[options\] <file> +talk with an agent/);
    expect(r.stdout).toMatch(/\n {2}simulate \[options\] <file> +hold conversations/);
    expect(r.stdout).toMatch(/\n {2}run \[options\] <file> <function> \[args\.\.\.\] +call one of an agent's functions/);
  });
});
