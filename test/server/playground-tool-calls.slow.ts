// Tool calls folded into the playground's chat where they happened (between the user's message
// and the reply of the turn that made them), in headless Chromium against a real server whose
// model is the real openai client on the local test server: live as the run goes, and from the
// stored turn (GET /api/threads/:id's `toolCalls`) once the page is loaded again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toSvg } from "@autograms/compiler";
import { Agent, OpenAIModel, defineTool, type Graph, type GraphNode } from "@autograms/runtime";
import { haveChromium, skippedWithout } from "../support/chromium.js";
import { startOpenAIServer, type OpenAIServer } from "../support/openai-server.js";
import { graph } from "../runtime/helpers.js";
import { playgroundInChromium } from "./support/playground-page.js";

const nodes: GraphNode[] = [
  { name: "look", action: "thought", instruction: "Look it up.", tools: ["lookup"], transitions: ["greet"] },
  { name: "greet", action: "chat", instruction: "Say what you found.", transitions: ["look"] },
] as GraphNode[];

let openai: OpenAIServer;
beforeAll(async () => {
  openai = await startOpenAIServer();
});
afterAll(async () => {
  await openai.close();
});

const browserSuite = haveChromium ? describe : describe.skip;
browserSuite(`tool calls in the playground's chat, in headless Chromium${skippedWithout}`, () => {
  const playground = playgroundInChromium({
    prefix: "autograms-playground-tools-",
    agent: () =>
      new Agent(graph(nodes, { tools: { lookup: { module: "./tools.js", export: "lookup" } } }), {
        model: new OpenAIModel({ model: "test-model", baseURL: openai.baseURL, apiKey: "k", stream: true }),
        tools: {
          lookup: defineTool({
            name: "lookup",
            description: "Looks a word up.",
            parameters: { type: "object", properties: { word: { type: "string" } } },
            run: ({ word }: { word: string }) => ({ word, letters: word.length }),
          }),
        },
      }),
    playground: { drawGraph: (g: Graph) => toSvg(g) },
    viewport: { width: 1440, height: 900 },
  });
  const { idle } = playground;
  /** The chat's items, in order: tool calls by their tool, messages by who wrote them. */
  const transcript = () =>
    playground.page
      .locator("#messages > *")
      .evaluateAll((els) =>
        els.map((e) =>
          e.classList.contains("tool-call")
            ? `tool ${e.getAttribute("data-tool")}`
            : `${e.classList.contains("user") ? "user" : "agent"}: ${e.textContent}`,
        ),
      );

  function script(word: string, reply: string): void {
    openai.enqueue({ toolCalls: [{ name: "lookup", arguments: { word } }] }, { text: "Found." }, { text: reply });
  }

  it("shows each call where it happened, live and once stored, its arguments and result a key away", async () => {
    const { page, server, errors } = playground;
    await page.goto(server.url + "/");
    await page.waitForSelector("body[data-ready]");
    script("apple", "Apple has 5 letters.");
    await page.click("#new-thread");
    await idle();
    script("kiwi", "Kiwi has 4 letters.");
    await playground.say("and kiwi?");
    const expected = [
      "tool lookup",
      "agent: Apple has 5 letters.",
      "user: and kiwi?",
      "tool lookup",
      "agent: Kiwi has 4 letters.",
    ];
    expect(await transcript()).toEqual(expected);
    // From the stored turns, the same.
    await page.reload();
    await page.waitForSelector("body[data-ready]");
    expect(await transcript()).toEqual(expected);
    const { turns } = (await (
      await fetch(`${server.url}/api/threads/${encodeURIComponent(playground.threadId())}`)
    ).json()) as { turns: { toolCalls?: unknown[] }[] };
    expect(turns.map((t) => t.toolCalls)).toEqual([
      [{ node: "look", tool: "lookup", arguments: '{"word":"apple"}', result: { word: "apple", letters: 5 } }],
      [{ node: "look", tool: "lookup", arguments: '{"word":"kiwi"}', result: { word: "kiwi", letters: 4 } }],
    ]);
    // Closed until asked; the keyboard opens it.
    const call = page.locator("#messages .tool-call").last();
    expect(await call.getAttribute("open")).toBeNull();
    expect(await call.locator("summary").textContent()).toBe('tool lookup({"word":"kiwi"})');
    await call.locator("summary").focus();
    await page.keyboard.press("Enter");
    expect(await call.getAttribute("open")).toBe("");
    expect(await call.locator("pre").allTextContents()).toEqual([
      'arguments: {"word":"kiwi"}',
      JSON.stringify({ word: "kiwi", letters: 4 }, null, 2),
    ]);
    expect(errors).toEqual([]);
  });

  it("fits a window 390 px wide", async () => {
    const { page } = playground;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.click('#panels [data-show="chat"]');
    const wide = await page.evaluate(() => {
      const w = document.documentElement.clientWidth;
      return [...document.querySelectorAll("#messages .tool-call, #messages .tool-call *")]
        .filter((e) => e.getBoundingClientRect().right > w + 0.5 && !e.closest("pre"))
        .map((e) => e.tagName);
    });
    expect(wide).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(
      0,
    );
  });
});
