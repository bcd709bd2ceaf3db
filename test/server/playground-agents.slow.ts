// Many agents in the playground, in headless Chromium: the agent switcher (shown only when there
// is more than one), each agent's threads its own, and the command palette (Ctrl+K) over agents,
// threads and pages used by keyboard alone (a combobox over a listbox); at 1440 and 390 px, light
// and dark; no request leaves the server's origin.
import { describe, expect, it } from "vitest";
import { toSvg } from "@autograms/compiler";
import { Agent, OfflineModel, type Graph } from "@autograms/runtime";
import { haveChromium, skippedWithout } from "../support/chromium.js";
import { playgroundInChromium, tutor } from "./support/playground-page.js";

const browserSuite = haveChromium ? describe : describe.skip;
browserSuite(`many agents in the playground, in headless Chromium${skippedWithout}`, () => {
  const playground = playgroundInChromium({
    prefix: "autograms-playground-agents-",
    agent: () => new Agent(tutor, { model: new OfflineModel() }),
    agents: () => [{ agent: new Agent({ ...tutor, agent: "SecondTutor" }, { model: new OfflineModel() }) }],
    playground: { drawGraph: (g: Graph) => toSvg(g) },
    viewport: { width: 1440, height: 900 },
  });
  const requests: string[] = [];
  const ready = () => playground.page.waitForSelector("body[data-ready]");
  const focused = () => playground.page.evaluate(() => document.activeElement?.id ?? "");
  const options = () => playground.page.locator("#palette-list [role=option]").allTextContents();
  const threads = () => playground.page.locator("#thread-list li").count();
  /** Ctrl+K, the query typed, then the keys given. */
  const palette = async (query: string, ...keys: string[]) => {
    const { page } = playground;
    await page.keyboard.press("Control+k");
    expect(await page.locator("#palette").isVisible()).toBe(true);
    expect(await focused()).toBe("palette-input");
    await page.keyboard.type(query);
    for (const key of keys) await page.keyboard.press(key);
  };

  it("switches agents from the header and the palette, each with its own threads, by keyboard", async () => {
    const { page, server, errors } = playground;
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(`${server.url}/`);
    await ready();
    expect(await page.locator("#agents a").allTextContents()).toEqual(["FractionTutor", "SecondTutor"]);
    expect(await page.locator("#agents a[aria-current=page]").textContent()).toBe("FractionTutor");
    await page.click("#new-thread");
    await playground.idle();
    expect(await threads()).toBe(1);

    // The palette: a combobox over a listbox of the other agent, the threads, the studio's pages and
    // the playground's panels.
    await palette("");
    expect(await page.getAttribute("#palette-input", "role")).toBe("combobox");
    expect(await page.getAttribute("#palette-input", "aria-expanded")).toBe("true");
    expect(await page.getAttribute("#palette-list", "role")).toBe("listbox");
    expect(await options()).toEqual([
      "AgentSecondTutor",
      expect.stringMatching(/^Thread.*t-/),
      "PageStudio",
      "PageRuns",
      "PageMetrics",
      "PageExperiments",
      "PageTools",
      "PanelThreads",
      "PanelChat",
      "PanelCode",
      "PanelTurns",
    ]);
    expect(await page.getAttribute("#palette-input", "aria-activedescendant")).toBe("palette-option-0");
    await page.keyboard.press("ArrowDown");
    expect(await page.getAttribute("#palette-input", "aria-activedescendant")).toBe("palette-option-1");
    expect(await page.getAttribute("#palette-option-1", "aria-selected")).toBe("true");
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowUp");
    // Up from the first wraps to the last.
    expect(await page.getAttribute("#palette-input", "aria-activedescendant")).toBe("palette-option-10");
    await page.keyboard.press("Escape");
    // Escape closes it and gives the focus back.
    await page.focus("#input");
    await palette("");
    await page.keyboard.press("Escape");
    expect(await page.locator("#palette").isHidden()).toBe(true);
    expect(await focused()).toBe("input");

    // A panel, by name: it shows, and the focus goes into it.
    await palette("turns", "Enter");
    expect(await page.getAttribute("body", "data-panel")).toBe("timeline");
    expect(await page.evaluate(() => document.getElementById("timeline")!.contains(document.activeElement))).toBe(true);
    // A page of the studio: it shows in the playground's place, its header button marked.
    await palette("metrics", "Enter");
    expect(await page.getAttribute("body", "data-page")).toBe("metrics");
    expect(await page.getAttribute('#pages [data-page="metrics"]', "aria-current")).toBe("true");

    // The other agent: its page, its threads (none yet), its name.
    await palette("second", "Enter");
    await page.waitForURL(`${server.url}/agents/SecondTutor/`);
    await ready();
    expect(await page.locator("#agent-name").textContent()).toBe("SecondTutor");
    expect(await page.locator("#agents a[aria-current=page]").textContent()).toBe("SecondTutor");
    expect(await threads()).toBe(0);
    await page.click("#new-thread");
    await playground.idle();
    expect(await threads()).toBe(1);
    // Back with the header's switcher, by keyboard: the first agent's thread, and only it.
    await page.focus("#agents a >> text=FractionTutor");
    await page.keyboard.press("Enter");
    await page.waitForURL(`${server.url}/`);
    await ready();
    expect(await page.locator("#agent-name").textContent()).toBe("FractionTutor");
    expect(await threads()).toBe(1);
    // A thread, found by its id.
    const id = (await page.locator("#thread-list li").getAttribute("data-thread"))!;
    await palette(id.slice(2, 10), "Enter");
    await page.waitForFunction((t) => location.hash === `#thread=${t}`, id);
    expect(await page.getAttribute("body", "data-panel")).toBe("chat");
    expect(errors).toEqual([]);
  });

  for (const [width, height, scheme] of [
    [1440, 900, "light"],
    [390, 844, "dark"],
  ] as const) {
    it(`shows the switcher and the palette whole at ${width} px, ${scheme}`, async () => {
      const { page } = playground;
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: scheme });
      await page.keyboard.press("Escape");
      const inside = async (selector: string) => {
        const box = (await page.locator(selector).boundingBox())!;
        return box.x >= 0 && box.x + box.width <= width && box.y >= 0 && box.y + box.height <= height;
      };
      expect(await inside("#agents")).toBe(true);
      expect(await inside("#theme")).toBe(true);
      await palette("");
      expect(await inside("#palette .box")).toBe(true);
      expect(await inside("#palette-option-0")).toBe(true);
      // The active option stands out in either scheme: its background is the scheme's.
      const background = await page.evaluate(() => {
        const c = getComputedStyle(document.querySelector("#palette .box")!).backgroundColor;
        const [r, g, b] = c.match(/\d+/g)!.map(Number);
        return (r! + g! + b!) / 3;
      });
      if (scheme === "dark") expect(background).toBeLessThan(80);
      else expect(background).toBeGreaterThan(200);
      await page.keyboard.press("Escape");
    });
  }

  it("sends no request outside the server's origin", () => {
    const origin = new URL(playground.server.url).origin;
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((r) => new URL(r).origin !== origin)).toEqual([]);
  });
});
