// The playground's theme button in headless Chromium: the system's scheme, light or dark, reached
// with the keyboard, kept over a reload, the graph dark with the page; at 1440 and 390 px; no
// request leaves the server's origin.
import { describe, expect, it } from "vitest";
import { toSvg } from "@autograms/compiler";
import { Agent, OfflineModel, type Graph } from "@autograms/runtime";
import { haveChromium, skippedWithout } from "../support/chromium.js";
import { colourLightness, playgroundInChromium, tutor } from "./support/playground-page.js";

const browserSuite = haveChromium ? describe : describe.skip;
browserSuite(`the playground's theme in headless Chromium${skippedWithout}`, () => {
  const playground = playgroundInChromium({
    prefix: "autograms-playground-theme-",
    agent: () => new Agent(tutor, { model: new OfflineModel() }),
    playground: { drawGraph: (g: Graph) => toSvg(g) },
    viewport: { width: 1440, height: 900 },
  });
  const requests: string[] = [];
  const lightness = (selector: string, property: "backgroundColor" | "color") =>
    colourLightness(playground.page, selector, property);
  const graphFilter = () =>
    playground.page.evaluate(() => getComputedStyle(document.querySelector("#graph-box > svg")!).filter);

  it("follows the system until a theme is chosen with the keyboard, and keeps the choice", async () => {
    const { page, server, errors } = playground;
    page.on("request", (r) => requests.push(r.url()));
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto(server.url + "/");
    await page.waitForSelector("body[data-ready]");
    await page.click("#graph-tab");
    await page.waitForSelector("#graph-box > svg");
    expect(await page.locator("#theme").textContent()).toBe("Theme: system");
    expect(await lightness("body", "backgroundColor")).toBeLessThan(60);
    expect(await graphFilter()).toMatch(/invert/);
    // Tab to the button: it is in the page's keyboard order.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    for (let i = 0; i < 80 && !(await page.evaluate(() => document.activeElement?.id === "theme")); i++)
      await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("theme");
    await page.keyboard.press("Enter");
    // Light, although the system is dark: the page and its graph.
    expect(await page.locator("#theme").textContent()).toBe("Theme: light");
    expect(await lightness("body", "backgroundColor")).toBeGreaterThan(200);
    expect(await lightness("body", "color")).toBeLessThan(60);
    expect(await graphFilter()).toBe("none");
    await page.emulateMedia({ colorScheme: "light" });
    await page.keyboard.press("Enter");
    // Dark, although the system is light; the graph goes dark with it.
    expect(await page.locator("#theme").textContent()).toBe("Theme: dark");
    expect(await lightness("body", "backgroundColor")).toBeLessThan(60);
    expect(await lightness("body", "color")).toBeGreaterThan(180);
    expect(await lightness("#graph-box", "backgroundColor")).toBeLessThan(60);
    expect(await graphFilter()).toMatch(/invert/);
    await page.reload();
    await page.waitForSelector("body[data-ready]");
    expect(await page.locator("#theme").textContent()).toBe("Theme: dark");
    expect(await lightness("body", "backgroundColor")).toBeLessThan(60);
    await page.click("#theme");
    expect(await page.locator("#theme").textContent()).toBe("Theme: system");
    expect(await lightness("body", "backgroundColor")).toBeGreaterThan(200);
    expect(errors).toEqual([]);
  });

  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    it(`shows the theme button whole in a window ${width} px wide`, async () => {
      const { page } = playground;
      await page.setViewportSize({ width, height });
      const box = (await page.locator("#theme").boundingBox())!;
      expect(box.x >= 0 && box.x + box.width <= width && box.y + box.height <= height).toBe(true);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
      ).toBe(0);
    });
  }

  it("sends no request off the server's origin", () => {
    const origin = new URL(playground.server.url).origin;
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith("data:"))).toEqual([]);
  });
});
