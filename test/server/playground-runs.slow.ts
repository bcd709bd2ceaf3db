// The studio's runs and metrics pages in headless Chromium: every run listed and filtered, a run's
// span tree and timeline, a span's input, output and attributes, a node span's line lit in the
// agent's source, the metrics of the last day; reached with the keyboard, at 1440 and 390 px,
// light and dark; no request leaves the server's origin. The tutor sample, the offline model.
import { describe, expect, it } from "vitest";
import { toSvg } from "@autograms/compiler";
import { Agent, OfflineModel, type Graph } from "@autograms/runtime";
import { haveChromium, skippedWithout } from "../support/chromium.js";
import {
  contrast,
  conversation,
  inView,
  LOOKS,
  playgroundInChromium,
  tutor,
  tutorSource,
} from "./support/playground-page.js";

const browserSuite = haveChromium ? describe : describe.skip;
browserSuite(`the studio's runs and metrics in headless Chromium${skippedWithout}`, () => {
  const playground = playgroundInChromium({
    prefix: "autograms-playground-runs-",
    agent: () => new Agent(tutor, { model: new OfflineModel() }),
    playground: {
      drawGraph: (g: Graph) => toSvg(g),
      sources: () => [{ path: "samples/tutor/agent.ts", text: tutorSource, role: "agent" }],
    },
    viewport: { width: 1440, height: 900 },
  });
  const requests: string[] = [];

  /** Presses Tab until the element `selector` names has the focus. */
  async function tabTo(selector: string): Promise<void> {
    const { page } = playground;
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    for (let i = 0; i < 120; i++) {
      await page.keyboard.press("Tab");
      if (await page.evaluate((s) => document.activeElement?.matches(s) === true, selector)) return;
    }
    throw new Error(`${selector} is not reached by Tab`);
  }

  it("lists the runs, newest first, and filters them", async () => {
    const { page, server, errors } = playground;
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(server.url + "/");
    await page.waitForSelector("body[data-ready]");
    await page.click("#new-thread");
    await playground.idle();
    await playground.say(conversation.turns[1]!.user);
    await tabTo('#pages [data-page="runs"]');
    await page.keyboard.press("Enter");
    await page.waitForSelector("#run-list li[data-run]");
    expect(await page.locator("#runs-page").isVisible()).toBe(true);
    expect(await page.locator("main").isHidden()).toBe(true);
    expect(await page.locator("#run-list li[data-run] .said").allTextContents()).toEqual([
      conversation.turns[1]!.user,
      "(opening)",
    ]);
    expect(await page.locator("#run-list .state").allTextContents()).toEqual(["committed", "committed"]);
    await page.selectOption("#runs-status", "failed");
    await page.click("#runs-apply");
    await page.waitForSelector("#run-list li.empty");
    await page.selectOption("#runs-status", "");
    await page.fill("#runs-error", "");
    await page.click("#runs-apply");
    await page.waitForSelector("#run-list li[data-run]");
    expect(errors).toEqual([]);
  });

  it("shows a run's span tree and timeline; a span's input, output and attributes; a node's line", async () => {
    const { page, errors } = playground;
    await page.click("#run-list li[data-run] button");
    await page.waitForSelector(".span-row");
    const kinds = await page.locator(".span-row .kind").allTextContents();
    expect(kinds[0]).toBe("turn");
    expect(kinds).toContain("node");
    // The tutor's reply is chosen among its branches by the model: a decision.
    expect(kinds).toContain("decision");
    // Every bar within its track, placed by start and length.
    const bars = await page
      .locator(".span-row .bar-fill")
      .evaluateAll((els) =>
        els.map((e) => [parseFloat((e as HTMLElement).style.left), parseFloat((e as HTMLElement).style.width)]),
      );
    for (const [left, width] of bars) expect(left! + width!).toBeLessThanOrEqual(100.5);
    // The keyboard moves between spans: the first, then the next (a node).
    await page.focus(".span-row:first-child .span-name");
    await page.keyboard.press("Enter");
    await page.waitForSelector(".span-detail h4");
    expect(await page.locator(".span-detail h4").textContent()).toMatch(/^turn: turn \d+$/);
    expect(await page.locator(".span-detail h5").allTextContents()).toEqual(["Input", "Output", "Attributes"]);
    await page.keyboard.press("ArrowDown");
    await page.waitForFunction(() => document.querySelector(".span-detail h4")?.textContent?.startsWith("node: "));
    const node = (await page.locator(".span-detail h4").textContent())!.replace("node: ", "");
    const line = tutor.nodes.find((n) => n.name === node)!.loc!.line;
    expect(await page.locator(".show-source").textContent()).toBe(`Show line ${line} in the source`);
    await page.click(".show-source");
    await page.waitForSelector(`.src-line.selected[data-line="${line}"]`);
    expect(await page.locator("main").isVisible()).toBe(true);
    expect(errors).toEqual([]);
  });

  it("shows the metrics of the last day: runs, tokens, latency, errors, per agent", async () => {
    const { page, errors } = playground;
    await tabTo('#pages [data-page="metrics"]');
    await page.keyboard.press("Enter");
    await page.waitForSelector('.card[data-figure="runs"]');
    expect(await page.locator('.card[data-figure="runs"] .figure').textContent()).toBe("2");
    expect(await page.locator('.card[data-figure="errors"] .figure').textContent()).toBe("0");
    expect(await page.locator('.card[data-figure="p95 latency"] .figure').textContent()).toMatch(/ms|s$/);
    expect(await page.locator(".chart li").count()).toBe(24);
    expect(await page.locator("table.agents tbody tr td").first().textContent()).toBe(tutor.agent);
    await page.selectOption("#metrics-range", "week");
    await page.waitForFunction(() => document.querySelectorAll(".chart li").length === 7);
    expect(errors).toEqual([]);
  });

  for (const { width, height, scheme } of LOOKS) {
    it(`shows the runs and metrics pages whole at ${width} px, ${scheme}`, async () => {
      const { page } = playground;
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: scheme });
      // Polled: the list is drawn as its runs arrive, and the page can still be laying itself out
      // for the new width (a loaded machine once read the first row's box before that settled).
      const within = (selector: string) => expect.poll(() => inView(page, selector), { message: selector }).toBe(true);
      await page.click('#pages [data-page="runs"]');
      await page.waitForSelector("#run-list li[data-run]");
      await within('#pages [data-page="metrics"]');
      await within("#runs-apply");
      await within("#run-list li[data-run]");
      await page.click("#run-list li[data-run] button");
      await page.waitForSelector(".span-row");
      await within(".span-row .span-ms");
      await page.click('#pages [data-page="metrics"]');
      await page.waitForSelector('.card[data-figure="runs"]');
      await within('.card[data-figure="runs"]');
      // Text and its background apart in either scheme.
      expect(await contrast(page, "#metrics-page")).toBeGreaterThan(100);
    });
  }

  it("sends no request off the server's origin", () => {
    const origin = new URL(playground.server.url).origin;
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith("data:"))).toEqual([]);
  });
});
