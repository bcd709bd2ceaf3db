// Agent.editVariables: a saved conversation with variables of one frame set by hand (the
// playground's "what if"), checked as memory is: only variables the frame has, plain JSON values.
import { describe, expect, it } from "vitest";
import { compile } from "@autograms/compiler";
import { Agent, AgentError, OfflineModel, type Memory } from "@autograms/runtime";

const { graph } = compile(
  `import { Autogram, chatExact } from "@autograms/runtime";
export default class Counter extends Autogram {
  count = 1;
  main() {
    while (true) {
      chatExact(\`Count: \${this.count}\`);
      this.count = this.count + 1;
    }
  }
}
`,
  { fileName: "counter.ts" },
);
const agent = new Agent(graph!, { model: new OfflineModel() });

describe("Agent.editVariables", () => {
  it("sets a frame's variables; the next turn goes on from them", async () => {
    const first = await agent.reply("");
    expect(first.reply).toBe("Count: 1");
    const { memory, delta } = agent.editVariables(first.memory, 0, { count: 41 });
    expect(memory.stack[0]!.vars.count).toBe(41);
    expect(delta).toBeDefined();
    // Plain JSON, as every memory: it resumes through a round trip.
    const next = await agent.reply("next", JSON.parse(JSON.stringify(memory)) as Memory);
    expect(next.reply).toBe("Count: 42");
    // The memory given is left as it was.
    expect(first.memory.stack[0]!.vars.count).toBe(1);
  });

  it("refuses what memory cannot hold, and says why", async () => {
    const { memory } = await agent.reply("");
    const refused = (frame: number, set: Record<string, unknown>) => {
      try {
        agent.editVariables(memory, frame, set);
      } catch (e) {
        expect(e).toBeInstanceOf(AgentError);
        return `${(e as AgentError).code}: ${(e as AgentError).detail}`;
      }
      throw new Error("not refused");
    };
    expect(refused(0, { cuont: 2 })).toBe(
      "bad_input: cannot set the variables: frame 0 (main) has no variable 'cuont' (it has count)",
    );
    expect(refused(3, { count: 2 })).toBe(
      "bad_input: cannot set the variables: the conversation's frames are 0 to 0, not 3",
    );
    expect(refused(0, {})).toBe("bad_input: cannot set the variables: give at least one variable and its value");
    expect(refused(0, { count: Number.NaN })).toBe(
      "bad_input: cannot set the variables: count is NaN, not a JSON number",
    );
    expect(refused(0, { count: { at: new Date(0) } })).toBe(
      "bad_input: cannot set the variables: count.at is a Date, not JSON",
    );
    expect(refused(0, { count: [1, undefined] })).toBe(
      "bad_input: cannot set the variables: count[1] is undefined, not JSON",
    );
  });
});
