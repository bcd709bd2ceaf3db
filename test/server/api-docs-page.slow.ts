// The OpenAPI document's page (GET /api/docs) in headless Chromium: reached from the playground's
// header, every endpoint of the document listed and reachable with the keyboard, readable at 1440
// and 390 px, dark and light as the system is; no request leaves the server's origin and the page
// runs no script.
import { describe, expect, it } from "vitest";
import { toSvg } from "@autograms/compiler";
import { Agent, OfflineModel, type Graph } from "@autograms/runtime";
import { haveChromium, skippedWithout } from "../support/chromium.js";
import { colourLightness, playgroundInChromium, tutor } from "./support/playground-page.js";

const browserSuite = haveChromium ? describe : describe.skip;
browserSuite(`the API's page in headless Chromium${skippedWithout}`, () => {
  const playground = playgroundInChromium({
    prefix: "autograms-api-docs-",
    agent: () => new Agent(tutor, { model: new OfflineModel() }),
    playground: { drawGraph: (g: Graph) => toSvg(g) },
    viewport: { width: 1440, height: 900 },
  });
  const requests: string[] = [];
  const lightness = (selector: string, property: "backgroundColor" | "color") =>
    colourLightness(playground.page, selector, property);

  it("is linked from the playground and lists every endpoint of /openapi.json", async () => {
    const { page, server, errors } = playground;
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(server.url + "/");
    await page.waitForSelector("body[data-ready]");
    await page.click("#api-docs");
    await page.waitForURL(`${server.url}/api/docs`);
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      info: { title: string };
      paths: Record<string, Record<string, { summary: string }>>;
    };
    expect(await page.locator("h1").textContent()).toBe(document.info.title);
    const listed = await page.locator("nav a").allTextContents();
    for (const [path, item] of Object.entries(document.paths))
      for (const method of Object.keys(item)) expect(listed, `${method} ${path}`).toContain(`${method} ${path}`);
    // Each endpoint's section holds its summary, and the schemas it names link to theirs.
    const threads = page.locator("section#get-api-threads");
    expect(await threads.textContent()).toContain(document.paths["/api/threads"]!.get!.summary);
    await threads.locator('a[href="#schema-ThreadInfo"]').first().click();
    expect(await page.evaluate(() => location.hash)).toBe("#schema-ThreadInfo");
    expect(await page.locator("#schema-ThreadInfo pre").textContent()).toContain('"graphHash"');
    expect(await page.evaluate(() => document.scripts.length)).toBe(0);
    expect(errors).toEqual([]);
  });

  it("takes the reader to an endpoint with the keyboard", async () => {
    const { page, server } = playground;
    await page.goto(`${server.url}/api/docs`);
    const target = "#post-api-threads-id-fork";
    for (
      let i = 0;
      i < 60 && !(await page.evaluate((t) => document.activeElement?.getAttribute("href") === t, target));
      i++
    )
      await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("href"))).toBe(target);
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => location.hash)).toBe(target);
    const box = (await page.locator(target).boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(-1);
    expect(box.y).toBeLessThan(900);
  });

  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    for (const scheme of ["light", "dark"] as const) {
      it(`reads whole in a window ${width} px wide, ${scheme}`, async () => {
        const { page, server } = playground;
        await page.setViewportSize({ width, height });
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto(`${server.url}/api/docs`);
        // Nothing wider than the window: long paths, schemas and tables wrap or scroll in their own box.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        const heading = (await page.locator("section#post-ag-ui h2").boundingBox())!;
        expect(heading.x >= 0 && heading.x + heading.width <= width).toBe(true);
        const [background, text] = [await lightness("body", "backgroundColor"), await lightness("body", "color")];
        if (scheme === "dark") expect([background < 60, text > 180]).toEqual([true, true]);
        else expect([background > 200, text < 60]).toEqual([true, true]);
        expect(await lightness("section", "backgroundColor")).toSatisfy((l: number) =>
          scheme === "dark" ? l < 60 : l > 200,
        );
      });
    }
  }

  it("sent no request outside the server's origin", () => {
    const origin = new URL(playground.server.url).origin;
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((u) => new URL(u).origin !== origin && !u.startsWith("data:"))).toEqual([]);
  });
});
