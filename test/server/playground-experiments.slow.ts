// The studio's experiments page in headless Chromium: the stored experiments listed, one's cases,
// a failing turn shown at the source (its path marked, its reply's line lit) from a link that a
// reload opens again, and a compared experiment's two paths side by side; reached by keyboard, in
// the light and the dark, at 1440 and 390 px; no request leaves the server's origin.
import { beforeAll, describe, expect, it } from "vitest";
import { toSvg } from "@autograms/compiler";
import { Agent, OfflineModel, type Graph } from "@autograms/runtime";
import type { Page } from "playwright-core";
import { haveChromium, skippedWithout } from "../support/chromium.js";
import { playgroundInChromium, tutor, tutorSource } from "./support/playground-page.js";
import { storeTutorExperiments } from "./support/tutor-experiments.mjs";

const browserSuite = haveChromium ? describe : describe.skip;
browserSuite(`the studio's experiments page in headless Chromium${skippedWithout}`, () => {
  const playground = playgroundInChromium({
    prefix: "autograms-playground-experiments-",
    agent: () => new Agent(tutor, { model: new OfflineModel() }),
    playground: {
      drawGraph: (g: Graph) => toSvg(g),
      sources: () => [{ path: "samples/tutor/agent.ts", text: tutorSource, role: "agent" }],
    },
    viewport: { width: 1440, height: 900 },
  });
  let ids = { there: "", here: "" };
  beforeAll(async () => {
    const { there, here } = await storeTutorExperiments(playground.store, tutor);
    ids = { there: there.id, here: here.id };
  });
  const requests: string[] = [];

  /** Tabs until `selector` has the focus (it is in the page's keyboard order), and presses Enter. */
  async function press(page: Page, selector: string): Promise<void> {
    for (let i = 0; i < 120; i++) {
      if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) break;
      await page.keyboard.press("Tab");
    }
    expect(await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector), selector).toBe(true);
    await page.keyboard.press("Enter");
  }

  const lightness = (page: Page, selector: string) =>
    page.evaluate((s) => {
      const [r, g, b] = getComputedStyle(document.querySelector(s)!)
        .backgroundColor.match(/\d+(\.\d+)?/g)!
        .map(Number);
      return (r! + g! + b!) / 3;
    }, selector);

  it("opens by keyboard: the experiments, the last one's cases, and what changed, the two paths side by side", async () => {
    const { page, server, errors } = playground;
    page.on("request", (r) => requests.push(r.url()));
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto(server.url + "/");
    await page.waitForSelector("body[data-ready]");
    await press(page, "#experiments-open");
    await page.waitForSelector("#experiment-detail h3");
    expect(await page.getAttribute("body", "data-page")).toBe("experiments");
    expect(
      await page.locator("#experiment-list li").evaluateAll((l) => l.map((e) => e.getAttribute("data-experiment"))),
    ).toEqual([ids.here, ids.there]);
    expect(await page.locator("#experiment-detail h3").textContent()).toBe(`Experiment ${ids.here}`);
    expect(await lightness(page, "#experiments")).toBeLessThan(60);
    // The failing case is open, with its failure; the passing one closed.
    const failed = page.locator(".case.failed");
    expect(await failed.locator("summary").textContent()).toBe("\u2717 a nervous student (line 7)");
    expect(await failed.locator(".failure").textContent()).toBe("node explain: replied at 'encourage'");
    expect(await page.locator(".case.passed details").getAttribute("open")).toBeNull();
    // The turn that went another way: there through explain, here to encourage, parting after ask_ready.
    const sides = page.locator(".changes .side-by-side > div");
    expect(await sides.locator("h5").allTextContents()).toEqual([
      "Turn 2 there: before/agent.ts",
      "Turn 2 here: samples/tutor/agent.ts",
    ]);
    const path = (i: number) =>
      sides
        .nth(i)
        .locator("li")
        .evaluateAll((l) => l.map((e) => `${e.className === "parts" ? "*" : ""}${e.textContent}`));
    const [there, here] = [await path(0), await path(1)];
    expect(there[0]).toBe("ask_readyagent.ts:17");
    expect(here[0]).toBe("ask_readyagent.ts:17");
    expect(there.some((p) => p.startsWith("*explain"))).toBe(true);
    expect(here.at(-1)).toBe("*encourageagent.ts:31");
    expect(errors).toEqual([]);
  });

  it("shows a failing turn at the source, its reply's line lit, from a link a reload opens again", async () => {
    const { page, errors } = playground;
    await press(page, ".case.failed .case-turns > li.failed .at-source");
    await page.waitForSelector(".src-line.lit");
    expect(await page.getAttribute("body", "data-page")).toBeNull();
    expect(await page.locator(".src-line.lit .ln").textContent()).toBe("31");
    expect(await page.locator("#status").textContent()).toBe(
      "a nervous student, turn 2: replied at encourage (agent.ts:31)",
    );
    expect(new URL(page.url()).hash).toBe(`#experiment=${ids.here}&case=1&turn=2`);
    // The line the path left from is marked as passed.
    expect(await page.locator(".src-line.passed .ln").allTextContents()).toContain("17");
    await page.reload();
    await page.waitForSelector("body[data-ready]");
    expect(await page.locator(".src-line.lit .ln").textContent()).toBe("31");
    // Back to the page, in the light.
    await page.emulateMedia({ colorScheme: "light" });
    await press(page, "#experiments-open");
    await page.waitForSelector("#experiment-detail h3");
    expect(await lightness(page, "#experiments")).toBeGreaterThan(200);
    await press(page, "#experiments-close");
    expect(await page.getAttribute("body", "data-page")).toBeNull();
    expect(errors).toEqual([]);
  });

  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    it(`shows the page whole in a window ${width} px wide`, async () => {
      const { page } = playground;
      await page.setViewportSize({ width, height });
      await page.click("#experiments-open");
      await page.waitForSelector("body[data-page=experiments] #experiment-detail h3");
      for (const id of ["#experiments-open", "#theme", "#experiments-close"]) {
        const box = (await page.locator(id).boundingBox())!;
        expect(box.x >= 0 && box.x + box.width <= width && box.y + box.height <= height, id).toBe(true);
      }
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
      ).toBe(0);
      expect(await page.locator("#experiment-detail").evaluate((e) => e.scrollWidth - e.clientWidth)).toBe(0);
      await page.click("#experiments-open");
    });
  }

  it("sends no request off the server's origin", () => {
    const origin = new URL(playground.server.url).origin;
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith("data:"))).toEqual([]);
  });
});
