// The debugger on custom nodes: breakpoints on their lines, the scopes there, and a replay of a
// recorded conversation through them (their hooks' model calls answered from the recording).
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compile } from "@autograms/compiler";
import { Agent, DebugSession, ScriptedModel, type Stop, type TraceEvent } from "@autograms/runtime";
import { confirm, retrieve } from "../../samples/custom-action/actions.js";

const file = join(import.meta.dirname, "..", "..", "samples", "custom-action", "agent.ts");
const graph = compile(readFileSync(file, "utf8"), { fileName: file }).graph!;
const actions = [confirm, retrieve];
const inputs = ["When does the library open on Saturdays?", "Can I renew?", "40213", "no", "40231", "yes"];
const model = () => new ScriptedModel({ complete: ["Saturdays: 10:00 to 16:00."], choose: [] });
const lineOf = (name: string) => graph.nodes.find((n) => n.name === name)!.loc!.line;

async function stopsAt(
  session: DebugSession,
  lines: number[],
): Promise<{ stops: Stop[]; seen: unknown[]; replies: string[] }> {
  session.setLineBreakpoints(lines);
  const stops: Stop[] = [];
  const seen: unknown[] = [];
  const replies: string[] = [];
  session.on((e) => {
    if (e.kind === "stopped") {
      stops.push(e.stop);
      seen.push(session.evaluate("_last_user_reply"));
      queueMicrotask(() => session.resume("continue"));
    } else if (e.kind === "reply") replies.push(e.text);
  });
  await session.run();
  return { stops, seen, replies };
}

describe("the debugger on custom nodes", () => {
  it("stops at a custom node's line each time the run enters it, with its scope", async () => {
    const session = new DebugSession(graph, { model: model(), actions, inputs: [...inputs], stopOnEntry: false });
    const { stops, seen, replies } = await stopsAt(session, [lineOf("check_card"), lineOf("answer")]);
    expect(stops.map((s) => [s.reason, s.node])).toEqual([
      ["breakpoint", "answer"],
      ["breakpoint", "check_card"],
      ["breakpoint", "check_card"],
    ]);
    expect(seen).toEqual(["When does the library open on Saturdays?", "40213", "40231"]);
    expect(replies).toContain('Your card number is "40231". Is that right?');
  });

  it("replays a recorded conversation through custom nodes, stopping at them", async () => {
    const events: TraceEvent[] = [];
    const agent = new Agent(graph, { model: model(), actions });
    let r = await agent.reply("", undefined, { trace: (e) => events.push(e) });
    for (const text of inputs) r = await agent.reply(text, r.memory, { trace: (e) => events.push(e) });
    expect(r.done).toBe(true);
    expect(events.filter((e) => e.kind === "custom").map((e) => e.kind === "custom" && `${e.node} ${e.hook}`)).toEqual([
      "answer instruction",
      "check_card instruction",
      "check_card transition",
      "check_card instruction",
      "check_card transition",
    ]);
    const session = new DebugSession(graph, { replay: events, actions, stopOnEntry: false });
    const { stops, replies } = await stopsAt(session, [lineOf("check_card")]);
    expect(stops.map((s) => s.node)).toEqual(["check_card", "check_card"]);
    expect(replies.at(-1)).toBe("Done: the loans on card 40231 are renewed for three more weeks. Goodbye!");
  });
});
