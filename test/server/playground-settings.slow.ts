// The playground's model settings panel in headless Chromium against a real server whose model is
// the real openai client on the local OpenAI-compatible test server: the server's models listed
// (its GET /models), a thread's model, temperature and bound on tokens set from the keyboard and
// reaching the requests of its next turn, the turn showing them, a bad value refused with the
// field named; whole at 1440 and 390 px, light and dark; no request leaves the server's origin.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toSvg } from "@autograms/compiler";
import { Agent, OpenAIModel, type Graph } from "@autograms/runtime";
import { haveChromium, skippedWithout } from "../support/chromium.js";
import { startOpenAIServer, type OpenAIServer } from "../support/openai-server.js";
import { graph } from "../runtime/helpers.js";
import { playgroundInChromium } from "./support/playground-page.js";
import { enqueueTurn, usageNodes } from "./support/usage-agent.js";

let openai: OpenAIServer;
beforeAll(async () => {
  openai = await startOpenAIServer({ models: ["bigger-model"] });
});
afterAll(async () => {
  await openai.close();
});

const browserSuite = haveChromium ? describe : describe.skip;
browserSuite(`the playground's model settings in headless Chromium${skippedWithout}`, () => {
  const playground = playgroundInChromium({
    prefix: "autograms-playground-settings-",
    agent: () =>
      new Agent(graph(usageNodes), {
        model: new OpenAIModel({ model: "test-model", baseURL: openai.baseURL, apiKey: "k", stream: true }),
      }),
    playground: { drawGraph: (g: Graph) => toSvg(g) },
    viewport: { width: 1440, height: 900 },
  });
  const requests: string[] = [];

  /** Presses Tab until `id` has the focus: it is reachable from the keyboard in the page's order. */
  async function tabTo(id: string): Promise<void> {
    const { page } = playground;
    for (let i = 0; i < 80; i++) {
      if (await page.evaluate((want) => document.activeElement?.id === want, id)) return;
      await page.keyboard.press("Tab");
    }
    throw new Error(`#${id} is not reached by Tab`);
  }

  it("sets a thread's model and sampling from the keyboard, for its next turns", async () => {
    const { page, server, errors, idle } = playground;
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(server.url + "/");
    await page.waitForSelector("body[data-ready]");
    enqueueTurn(openai, "Hello!", 10, 2);
    await page.click("#new-thread");
    await idle();
    expect(await page.locator("#model-settings > summary").textContent()).toBe(
      "Model: test-model (the server's settings)",
    );
    expect(await page.locator("#settings-model option").allTextContents()).toEqual(["test-model", "bigger-model"]);
    // Open the panel and fill it in with the keyboard.
    await page.focus("#model-settings > summary");
    await page.keyboard.press("Enter");
    await tabTo("settings-model");
    await page.keyboard.press("ArrowDown");
    await tabTo("settings-temperature");
    await page.keyboard.type("0.7");
    await tabTo("settings-max-tokens");
    await page.keyboard.type("64");
    await tabTo("settings-apply");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() =>
      document.querySelector(".settings-note")?.textContent?.startsWith("The next messages use these settings"),
    );
    expect(await page.locator("#model-settings > summary").textContent()).toBe(
      "Model: bigger-model \u00b7 temperature 0.7 \u00b7 max 64 tokens",
    );
    const before = openai.completions.length;
    enqueueTurn(openai, "Fine.", 10, 2);
    await playground.say("hi");
    const sent = openai.completions.slice(before);
    expect(sent.map((r) => r.body.model)).toEqual(["bigger-model", "bigger-model"]);
    expect(sent.at(-1)!.body).toMatchObject({ temperature: 0.7, max_tokens: 64 });
    // The turn says what it ran with; the one before it, nothing.
    await page.waitForFunction(() => document.querySelectorAll("#turns li").length === 2);
    expect(await page.locator("#turns .turn-settings").allTextContents()).toEqual([
      "bigger-model \u00b7 temperature 0.7 \u00b7 max 64 tokens",
    ]);
    // Reloaded, the thread's settings are shown again.
    await page.reload();
    await page.waitForSelector("body[data-ready]");
    expect(await page.locator("#model-settings > summary").textContent()).toBe(
      "Model: bigger-model \u00b7 temperature 0.7 \u00b7 max 64 tokens",
    );
    expect(errors).toEqual([]);
  });

  it("says why a value is refused, naming the field, and goes back to the server's settings", async () => {
    const { page } = playground;
    await page.locator("#model-settings > summary").click();
    // Past what the input's own bounds let through when typed: the server's check answers.
    await page.fill("#settings-temperature", "5");
    await page.evaluate(() => ((document.querySelector(".settings-form") as HTMLFormElement).noValidate = true));
    await page.click("#settings-apply");
    await page.waitForFunction(() => document.querySelector(".settings-note.error") !== null);
    expect(await page.locator(".settings-note").textContent()).toBe(
      "bad_request: temperature: must be a number from 0 to 2",
    );
    await page.click("#settings-reset");
    await page.waitForFunction(() =>
      document.querySelector(".settings-note")?.textContent?.startsWith("The next messages use the server's"),
    );
    expect(await page.locator("#model-settings > summary").textContent()).toBe(
      "Model: test-model (the server's settings)",
    );
    expect(await page.locator("#settings-temperature").inputValue()).toBe("");
  });

  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    for (const scheme of ["light", "dark"] as const) {
      it(`shows the panel whole in a window ${width} px wide, ${scheme}`, async () => {
        const { page } = playground;
        await page.setViewportSize({ width, height });
        await page.emulateMedia({ colorScheme: scheme });
        if (width < 1000) await page.click('#panels [data-show="chat"]');
        const summary = page.locator("#model-settings > summary");
        if (!(await page.locator("#model-settings").evaluate((d) => (d as HTMLDetailsElement).open)))
          await summary.click();
        for (const id of ["#settings-model", "#settings-temperature", "#settings-max-tokens", "#settings-apply"]) {
          const box = (await page.locator(id).boundingBox())!;
          expect(box.x >= 0 && box.x + box.width <= width && box.y + box.height <= height).toBe(true);
        }
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
        ).toBe(0);
        // The inputs take the scheme's colours: light text on dark, dark text on light.
        const text = await page
          .locator("#settings-temperature")
          .evaluate((e) => getComputedStyle(e).color.match(/\d+/g)!.slice(0, 3).map(Number));
        const mean = (text[0]! + text[1]! + text[2]!) / 3;
        expect(scheme === "dark" ? mean > 180 : mean < 60).toBe(true);
      });
    }
  }

  it("sends no request off the server's origin", () => {
    const origin = new URL(playground.server.url).origin;
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith("data:"))).toEqual([]);
  });
});
