// The edits of `autograms serve --watch`, on a real process: the agent's file (and a tool module
// beside it) edited while a thread is open; the thread's next turn runs on the new build, a new
// thread uses the new tool, an edit that does not compile keeps the last good build serving, and a
// thread that cannot resume is reported and can be moved. Played with --workers 1
// (serve-watch-workers.slow.ts).
import { expect } from "vitest";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chatBody, json, textOf, uiChunks, uiMessageOf, userMessage } from "../../server/support/harness.js";
import { serveWatching, told } from "./serve-process.js";

const AGENT = `import { Autogram, chatExact } from "@autograms/runtime";
import { price } from "./prices.js";

export default class Stall extends Autogram {
  cost = 0;

  main() {
    chatExact("Hello!");
    this.cost = price("apple");
    chatExact(\`That is \${this.cost} pence.\`);
    chatExact("Thanks!");
    chatExact("Bye.", { transitions: ["quit"] });
  }
}
`;
// Its top-level code says when the module is imported.
const PRICES = (pence: number) =>
  `console.error("(prices module loaded)");\n\nexport function price(item: string): number {\n  return item.length * 0 + ${pence};\n}\n`;
const loads = (stderr: string) => stderr.split("(prices module loaded)").length - 1;

/**
 * The tool module is loaded once, and again when it is saved (a save of the agent alone makes the
 * agent again in the workers there are, which keep the module they loaded).
 */
export async function editWhileServing(folder: string): Promise<void> {
  const dir = join(folder, "scenario");
  mkdirSync(dir);
  const agentFile = join(dir, "agent.ts");
  writeFileSync(agentFile, AGENT);
  writeFileSync(join(dir, "prices.ts"), PRICES(30));
  const server = await serveWatching(dir, "1");
  let n = 0;
  const say = async (thread: string, text: string) => {
    const res = await fetch(`${server.url}/api/chat`, json(chatBody(thread, [userMessage(`m${++n}`, text)])));
    expect(res.status).toBe(200);
    return textOf(await uiMessageOf(await uiChunks(res.body!))).join(" ");
  };

  expect(await say("open", "hi")).toContain("That is 30 pence.");
  writeFileSync(agentFile, AGENT.replace(`chatExact("Thanks!")`, `chatExact("Thank you!")`));
  await told(server.stderr, /\(serving the new build: every thread of the agent can resume on it\)/, 1);
  expect(await say("open", "ok")).toBe("Thank you!");
  expect(loads(server.stderr())).toBe(1);

  // The tool module is bundled and loaded again: a new conversation gets the new price.
  writeFileSync(join(dir, "prices.ts"), PRICES(40));
  await told(server.stderr, /\(serving the new build/, 2);
  expect(await say("second", "hi")).toContain("That is 40 pence.");
  expect(loads(server.stderr())).toBe(2);

  // A save that does not compile: the diagnostics are shown, the last good build goes on serving.
  writeFileSync(agentFile, AGENT.replace(`chatExact("Bye."`, `chatExact(42`));
  await told(server.stderr, /\(the edit does not build: .*the last good build goes on\)/, 1);
  expect(server.stderr()).toMatch(/agent\.ts:\d+:\d+ - error/);
  // ...and to clients: GET /api/agent says the latest save failed, with the diagnostics.
  const agentInfo = async () =>
    (await (await fetch(`${server.url}/api/agent`)).json()) as { build: { ok: boolean; diagnostics?: string } };
  expect((await agentInfo()).build).toMatchObject({
    ok: false,
    diagnostics: expect.stringMatching(/agent\.ts:\d+:\d+ - error/),
  });
  expect(await say("open", "fine")).toBe("Bye.");

  // A thread that cannot resume on a build is listed when the build is served, and its next
  // message is refused before any run starts (422 stale_memory), not failed halfway.
  expect(await say("second", "ok")).toBe("Thank you!");
  writeFileSync(agentFile, AGENT.replace(`chatExact("Thanks!")`, `chatExact("Thanks a lot!")`));
  await told(server.stderr, /thread second cannot resume: .*autograms threads migrate second --to NODE/, 1);
  expect((await agentInfo()).build).toMatchObject({ ok: true });
  const refused = await fetch(`${server.url}/api/chat`, json(chatBody("second", [userMessage("m-stale", "ok")])));
  expect(refused.status).toBe(422);
  expect((await refused.json()).error).toMatchObject({ code: "stale_memory" });

  // POST /api/threads/:id/migrate moves it to a node of the build served; a wrong node is refused, saying why.
  const migrate = (node: string) => fetch(`${server.url}/api/threads/second/migrate`, json({ node }));
  const wrong = await migrate("nowhere");
  expect([wrong.status, (await wrong.json()).error]).toEqual([
    422,
    { code: "bad_migration", message: "cannot move the conversation to 'nowhere': the graph has no such node" },
  ]);
  const { graph } = (await (await fetch(`${server.url}/api/agent`)).json()) as {
    graph: { nodes: { name: string; instruction?: string }[] };
  };
  const thanks = graph.nodes.find((node) => node.instruction === "Thanks a lot!")!.name;
  const moved = await migrate(thanks);
  expect(moved.status).toBe(200);
  expect((await moved.json()).turn).toMatchObject({ user: null, reply: null });
  expect(await say("second", "ok")).toBe("Bye.");
  expect(readFileSync(agentFile, "utf8")).toContain("Thanks a lot!");
}
