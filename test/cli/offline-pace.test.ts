// --offline-pace: the offline model's wait between the words it streams, 20 ms unless given, 0 for
// none (a benchmark of `serve` measures the server, not the demo's pace); a usage error without
// --offline or with anything but a whole number of milliseconds.
import { describe, expect, it } from "vitest";
import type { ChatModel } from "@autograms/runtime";
import { chooseModel } from "../../cli/src/agent-loading/model.js";
import { autogramsInProcess, cliTestFolder } from "./support/run-cli.js";

cliTestFolder("autograms-offline-pace-");

/** The words a streamed answer gives before its promise has had a turn of the event loop, and all of them. */
async function streamed(model: ChatModel): Promise<{ atOnce: number; words: string[]; ms: number }> {
  const words: string[] = [];
  const start = performance.now();
  const answer = model.complete({
    messages: [
      {
        role: "user",
        content: "User: hello there\n\nInstruction for Agent: greet the user warmly and ask how they are",
      },
    ],
    node: "main.greet",
    purpose: "chat",
    onText: (w: string) => words.push(w),
  } as Parameters<ChatModel["complete"]>[0]);
  const atOnce = words.length;
  await answer;
  return { atOnce, words, ms: performance.now() - start };
}

describe("--offline-pace", () => {
  it("0 streams a reply's words at once", async () => {
    const { model } = await chooseModel({ offline: true, offlinePace: 0, stream: true }, true);
    const { atOnce, words } = await streamed(model);
    expect(words.length).toBeGreaterThan(5);
    expect(atOnce).toBe(words.length);
  });

  it("waits that many milliseconds between words, and 20 unless given", async () => {
    const paced = await streamed((await chooseModel({ offline: true, offlinePace: 30, stream: true }, true)).model);
    expect(paced.atOnce).toBe(1);
    expect(paced.ms).toBeGreaterThanOrEqual(30 * (paced.words.length - 1) - 5);
    const usual = await streamed((await chooseModel({ offline: true, stream: true }, true)).model);
    expect(usual.atOnce).toBe(1);
    expect(usual.words).toEqual(paced.words);
    expect(usual.ms).toBeGreaterThanOrEqual(20 * (usual.words.length - 1) - 5);
  });

  it.each([
    [["--offline-pace", "0"], "--offline-pace sets the offline model's pace: give it with --offline"],
    [["--offline", "--offline-pace", "-1"], "option '--offline-pace <ms>' argument '-1' is invalid"],
    [["--offline", "--offline-pace", "fast"], "option '--offline-pace <ms>' argument 'fast' is invalid"],
  ])("is a usage error with %j", async (args, message) => {
    for (const command of [["chat"], ["serve"], ["run"], ["simulate"]]) {
      const file = "samples/tutor/agent.ts";
      const rest = command[0] === "run" ? [file, "checkAnswer", "x", "y"] : [file];
      const r = await autogramsInProcess([...command, ...rest, ...args], { input: "" });
      expect(r.code, `${command}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(message);
    }
  });
});
