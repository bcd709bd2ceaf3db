// Runtime errors printed like compile diagnostics: file:line:column, the code, and a code frame of the agent source.
import { describe, expect, it } from "vitest";
import { Agent, AgentError, ModelError, ScriptedModel, formatAgentError, type Graph } from "@autograms/runtime";
import { sampleGraph, sampleSource } from "./support.js";

async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (e) {
    return e;
  }
  throw new Error("the run did not fail");
}

describe("formatAgentError", () => {
  it("shows a model failure at the node that was asking, with the first line of its long exec_node marked", async () => {
    const graph = sampleGraph("recruiter");
    const agent = new Agent(graph, { model: new ScriptedModel({ complete: [] }), config: { retryDelayMs: 0 } });
    const error = await failure(() => agent.reply(""));
    const greet = graph.nodes.find((n) => n.name === "greet")!.loc!;
    const text = formatAgentError(error, sampleSource("recruiter"), { graph });
    const [heading, ...frame] = text.split("\n");
    expect(heading).toMatch(
      `samples/recruiter/agent.ts:${greet.line}:${greet.column} - error model: node 'greet': the model failed to generate text: ` +
        "the script has no complete answer left (it had 0)",
    );
    expect(frame).toEqual([
      `  ${greet.line - 1} |     const salary_range = thoughtExact("150k-180k");`,
      `> ${greet.line} |     exec_node({`,
      `     |     ^^^^^^^^^^^`,
      `  ${greet.line + 1} |       action: "chat",`,
      "",
    ]);
  });

  it("marks the whole extent of a short node given the graph: an undefined variable in a chat instruction", async () => {
    const graph = structuredClone(sampleGraph("tutor")) as Graph;
    const pose = graph.nodes.find((n) => n.name === "pose")!;
    pose.instruction = "Here's your problem: $problm";
    const agent = new Agent(graph, { model: new ScriptedModel({ choose: [0, 0] }) });
    const first = await agent.reply("");
    const error = await failure(async () =>
      agent.reply("no questions", (await agent.reply("yes", first.memory)).memory),
    );
    expect(error).toBeInstanceOf(AgentError);
    const text = formatAgentError(error, sampleSource("tutor"), { graph });
    expect(formatAgentError(error, sampleSource("tutor"))).toContain(
      `> ${pose.loc!.line} |     chatExact(\`Here's your problem: \${problem}\`, { name: "pose" });\n     |     ^\n`,
    );
    expect(text).toContain(
      `samples/tutor/agent.ts:${pose.loc!.line}:${pose.loc!.column} - error undefined_variable: node 'pose': instruction uses undefined variable $problm\n`,
    );
    expect(text).toContain(
      `> ${pose.loc!.line} |     chatExact(\`Here's your problem: \${problem}\`, { name: "pose" });\n     |     ${"^".repeat(pose.loc!.endColumn - pose.loc!.column)}\n`,
    );
  });

  it("locates an error that only names its node through the graph", () => {
    const graph = sampleGraph("tutor");
    const encourage = graph.nodes.find((n) => n.name === "encourage")!.loc!;
    const text = formatAgentError(
      new ModelError("encourage", "timeout", "no answer in 30000 ms"),
      sampleSource("tutor"),
      { graph },
    );
    expect(text.split("\n")[0]).toBe(
      `samples/tutor/agent.ts:${encourage.line}:${encourage.column} - error: node 'encourage': model call failed: no answer in 30000 ms`,
    );
    expect(text).toContain(`> ${encourage.line} |     chatExact("No problem, fractions`);
  });

  it("prints the location alone without the source, and the message alone without a location", () => {
    const located = new AgentError("step_limit", "stopped after 5 node steps", {
      node: "loop",
      file: "a.ts",
      loc: { line: 3, column: 5, endLine: 3, endColumn: 9 },
    });
    expect(formatAgentError(located)).toBe("a.ts:3:5 - error step_limit: node 'loop': stopped after 5 node steps\n");
    expect(formatAgentError(located, "one line only")).toBe(
      "a.ts:3:5 - error step_limit: node 'loop': stopped after 5 node steps\n",
    );
    expect(formatAgentError(new AgentError("bad_input", "reply() takes a string"))).toBe(
      "error bad_input: reply() takes a string\n",
    );
    expect(formatAgentError("plain text")).toBe("error: plain text\n");
  });
});
