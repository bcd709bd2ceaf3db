// `globals` on a conversation's first reply: other starting values of the agent's globals, checked
// as an edit of the variables is, and ignored once the conversation has memory.
import { describe, expect, it } from "vitest";
import { AgentError } from "@autograms/runtime";
import { sampleAgent } from "../eval/support.js";

describe("RunOptions.globals", () => {
  it("starts the conversation with those values, the others as the graph gives them", async () => {
    const agent = sampleAgent("recruiter");
    const first = await agent.reply("", undefined, { globals: { role: "data engineer" } });
    expect(first.memory.stack[0]!.vars).toMatchObject({ role: "data engineer", company: "Acme Robotics" });
    const next = await agent.reply("Yes, ready.", first.memory, { globals: { role: "ignored" } });
    expect(next.reply).toContain("data engineer");
  });

  it("refuses a name that is not a global, and a value that is not JSON", async () => {
    const agent = sampleAgent("recruiter");
    await expect(agent.reply("", undefined, { globals: { background: "x" } })).rejects.toThrow(
      new AgentError(
        "bad_input",
        "cannot set the variables: frame 0 (main) has no variable 'background' (it has company, role, outcome, note)",
      ),
    );
    await expect(agent.reply("", undefined, { globals: { role: () => 1 } })).rejects.toThrow(
      /role is a function, not JSON/,
    );
  });
});
