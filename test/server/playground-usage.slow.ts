// The playground's tokens, cost, Stop and Regenerate, in headless Chromium against a real server
// whose model is the real openai client on the local OpenAI-compatible test server (which
// reports usage, streamed answers' too): the thread's, each turn's and each call's tokens with
// their cost from the price table; Stop and Regenerate reached by the keyboard, working through
// the HTTP API's endpoints; at 1440 and 390 px, light and dark; no request leaves the server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toSvg } from "@autograms/compiler";
import { Agent, OpenAIModel, type Graph } from "@autograms/runtime";
import { haveChromium, skippedWithout } from "../support/chromium.js";
import { startOpenAIServer, type OpenAIServer } from "../support/openai-server.js";
import { graph } from "../runtime/helpers.js";
import { contrast, inView, LOOKS, playgroundInChromium } from "./support/playground-page.js";
import { enqueueTurn, usageNodes } from "./support/usage-agent.js";

let openai: OpenAIServer;
beforeAll(async () => {
  openai = await startOpenAIServer();
});
afterAll(async () => {
  await openai.close();
});

const turn = (text: string, input: number, output: number) => enqueueTurn(openai, text, input, output);

const browserSuite = haveChromium ? describe : describe.skip;
browserSuite(`the playground's tokens, cost, Stop and Regenerate in headless Chromium${skippedWithout}`, () => {
  const playground = playgroundInChromium({
    prefix: "autograms-playground-usage-",
    agent: () =>
      new Agent(graph(usageNodes), {
        model: new OpenAIModel({ model: "test-model", baseURL: openai.baseURL, apiKey: "k", stream: true }),
      }),
    playground: { drawGraph: (g: Graph) => toSvg(g) },
    viewport: { width: 1440, height: 900 },
    prices: { "test-model": { input: 2, output: 10 } },
  });
  const requests: string[] = [];
  const { idle } = playground;
  const lastReply = () => playground.page.locator("#messages .msg.agent").last();

  /** Presses Tab until `id` has the focus: it is reachable from the keyboard in the page's order. */
  async function tabTo(id: string): Promise<void> {
    const { page } = playground;
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    for (let i = 0; i < 80; i++) {
      await page.keyboard.press("Tab");
      if (await page.evaluate((want) => document.activeElement?.id === want, id)) return;
    }
    throw new Error(`#${id} is not reached by Tab`);
  }

  it("shows the thread's, each turn's and each call's tokens with their cost", async () => {
    const { page, server, errors } = playground;
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(server.url + "/");
    await page.waitForSelector("body[data-ready]");
    turn("Hello!", 100, 10);
    await page.click("#new-thread");
    await idle();
    turn("Nice to meet you.", 200, 20);
    await playground.say("hi");
    // 302 in, 32 out: 302 * 2 / 1e6 + 32 * 10 / 1e6.
    await page.waitForFunction(() => document.querySelector("#thread-usage")?.textContent !== "");
    expect(await page.locator("#thread-usage").textContent()).toBe("thread: 302 in · 32 out tokens · cost 0.000924");
    expect(await page.locator('#turns li[data-turn="2"] .usage').textContent()).toBe(
      "201 in · 21 out tokens · cost 0.000612",
    );
    await page.click('#turns li[data-turn="2"] button');
    await page.waitForSelector(".calls .turn-usage");
    expect(await page.locator(".calls .turn-usage").textContent()).toBe(
      "This turn: 201 in · 21 out tokens · cost 0.000612",
    );
    expect(await page.locator(".calls details > summary .usage").allTextContents()).toEqual([
      " · 1 in · 1 out tokens · cost 0.000012",
      " · 200 in · 20 out tokens · cost 0.0006",
    ]);
    expect(errors).toEqual([]);
  });

  it("regenerates the last reply from the keyboard: the new one takes its place", async () => {
    const { page, server } = playground;
    const shown = await page.locator("#messages .msg").count();
    turn("Good to see you.", 210, 22);
    await tabTo("regenerate");
    await page.keyboard.press("Enter");
    await page.waitForFunction(
      () => document.querySelector("#messages .msg.agent:last-of-type")?.textContent === "Good to see you.",
    );
    await idle();
    expect(await page.locator("#messages .msg").count()).toBe(shown);
    expect(await lastReply().textContent()).toBe("Good to see you.");
    const { turns } = (await (
      await fetch(`${server.url}/api/threads/${encodeURIComponent(playground.threadId())}`)
    ).json()) as { turns: { user: string | null; reply: string | null; status: string }[] };
    expect(turns.map((t) => [t.user, t.reply, t.status])).toEqual([
      [null, "Hello!", "ok"],
      ["hi", "Nice to meet you.", "replaced"],
      ["hi", "Good to see you.", "ok"],
    ]);
  });

  it("stops a reply being written from the keyboard: the turn keeps nothing", async () => {
    const { page, server, errors } = playground;
    // The reply never comes: the run waits for the model until it is stopped.
    openai.enqueue({ choice: "A" }, { delay: 60_000, then: { text: "too late" } });
    await page.fill("#input", "tell me more");
    await page.press("#input", "Enter");
    await page.waitForSelector("#stop:not([hidden])");
    await tabTo("stop");
    await page.keyboard.press("Enter");
    await idle();
    expect(await page.locator("#stop").isHidden()).toBe(true);
    expect(await lastReply().getAttribute("class")).toContain("error");
    expect(await lastReply().textContent()).toMatch(/^stopped: /);
    const { turns } = (await (
      await fetch(`${server.url}/api/threads/${encodeURIComponent(playground.threadId())}`)
    ).json()) as { turns: { user: string | null; reply: string | null; status: string }[] };
    expect(turns.at(-1)).toMatchObject({ user: "tell me more", reply: null, status: "interrupted" });
    expect(errors).toEqual([]);
  });

  for (const { width, height, scheme } of LOOKS) {
    it(`shows the buttons and the tokens whole at ${width} px, ${scheme}`, async () => {
      const { page } = playground;
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: scheme });
      const narrow = width < 1000;
      const within = async (selector: string) => expect(await inView(page, selector), selector).toBe(true);
      if (narrow) await page.click('#panels [data-show="chat"]');
      await within("#regenerate");
      if (narrow) await page.click('#panels [data-show="timeline"]');
      await within("#thread-usage");
      // Text and its background apart in either scheme.
      expect(await contrast(page, "#regenerate")).toBeGreaterThan(100);
      if (narrow) await page.click('#panels [data-show="chat"]');
    });
  }

  it("sends no request off the server's origin", () => {
    const origin = new URL(playground.server.url).origin;
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith("data:"))).toEqual([]);
  });
});
