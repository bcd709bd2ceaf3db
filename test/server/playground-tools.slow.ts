// The studio's tool playground in headless Chromium: the agent's described tools listed, a form
// made from the chosen tool's JSON Schema (text, enum as a select, integer, optional boolean,
// object as JSON, required fields marked), run from the keyboard, its result, the tool's own
// failure and the server's refusal of bad arguments shown; at 1440 and 390 px, light and dark; a
// plain function (no schema) listed as one and run from a JSON field of its argument list; no
// request leaves the server's origin. MCP tools take the same path (tools-api.test.ts).
import { describe, expect, it } from "vitest";
import { toSvg } from "@autograms/compiler";
import { Agent, OfflineModel, defineTool, type Graph } from "@autograms/runtime";
import { haveChromium, skippedWithout } from "../support/chromium.js";
import { graph, n } from "../runtime/helpers.js";
import { contrast, inView, LOOKS, playgroundInChromium, tabTo } from "./support/playground-page.js";

const forecast = defineTool({
  name: "forecast",
  description: "The weather in a city for the next days.",
  parameters: {
    type: "object",
    properties: {
      city: { type: "string", description: "where" },
      unit: { type: "string", enum: ["C", "F"] },
      days: { type: "integer", description: "how many days, 1 to 7" },
      hourly: { type: "boolean" },
      where: { type: "object", description: "a place by its coordinates" },
    },
    required: ["city", "days"],
  },
  run: (args: { city: string; days: number; unit?: string; hourly?: boolean; where?: object }) => {
    if (args.city === "Atlantis") throw new Error("no weather station in Atlantis");
    return { ...args, temperatures: Array.from({ length: args.days }, (_, i) => 20 + i) };
  },
});

const echo = defineTool({
  name: "echo",
  description: "Gives back what it is given.",
  parameters: { type: "object", properties: { text: { type: "string" } } },
  run: ({ text }: { text?: string }) => text ?? null,
});

const agentGraph: Graph = graph(
  [n({ name: "hello", action: "chat_exact", instruction: "Hello.", transitions: ["hello"] })],
  {
    tools: {
      forecast: { module: "./tools.js", export: "forecast" },
      echo: { module: "./tools.js", export: "echo" },
    },
  },
);

/** Another agent served beside it, whose one tool is a plain function. */
const plainGraph: Graph = graph(
  [n({ name: "hello", action: "chat_exact", instruction: "Hello.", transitions: ["hello"] })],
  { agent: "Plain", tools: { sum: { module: "./tools.js", export: "sum" } } },
);
const sum = (...xs: number[]) => xs.reduce((a, b) => a + b, 0);

const browserSuite = haveChromium ? describe : describe.skip;
browserSuite(`the studio's tool playground in headless Chromium${skippedWithout}`, () => {
  const playground = playgroundInChromium({
    prefix: "autograms-playground-tools-",
    agent: () => new Agent(agentGraph, { model: new OfflineModel(), tools: { forecast, echo } }),
    agents: () => [{ agent: new Agent(plainGraph, { model: new OfflineModel(), tools: { sum } }) }],
    playground: { drawGraph: (g: Graph) => toSvg(g) },
    viewport: { width: 1440, height: 900 },
  });
  const requests: string[] = [];
  const answer = async () => {
    const { page } = playground;
    await page.waitForSelector("#tool-answer h4");
    return [await page.locator("#tool-answer h4").textContent(), await page.locator("#tool-answer pre").textContent()];
  };

  it("lists the tools and makes the chosen one's form from its schema, by keyboard", async () => {
    const { page, server, errors } = playground;
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(server.url + "/");
    await page.waitForSelector("body[data-ready]");
    await tabTo(page, '#pages [data-page="tools"]');
    await page.keyboard.press("Enter");
    await page.waitForSelector("#tool-list li[data-tool]");
    expect(await page.locator("#tools-page").isVisible()).toBe(true);
    expect(await page.locator("main").isHidden()).toBe(true);
    expect(await page.locator("#tool-list .name").allTextContents()).toEqual(["forecast", "echo"]);
    await tabTo(page, '#tool-list li[data-tool="forecast"] button');
    await page.keyboard.press("Enter");
    await page.waitForSelector("#tool-form");
    // The focus goes to the form's first field.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("tool-arg-city");
    const controls = await page
      .locator("#tool-form .tool-field")
      .evaluateAll((fields) =>
        fields.map((f) => [
          f.querySelector("code")!.textContent,
          f.querySelector(".required") !== null,
          f.querySelector("input, select, textarea")!.tagName.toLowerCase(),
          f.querySelector("input")?.type ?? null,
        ]),
      );
    expect(controls).toEqual([
      ["city", true, "input", "text"],
      ["unit", false, "select", null],
      ["days", true, "input", "number"],
      ["hourly", false, "select", null],
      ["where", false, "textarea", null],
    ]);
    // The name, the description, the form and where the answer goes: nothing else (no stray text).
    const parts = await page.evaluate(() =>
      [...document.getElementById("tool-detail")!.childNodes].map((c) => c.nodeName),
    );
    expect(parts).toEqual(["H3", "P", "FORM", "DIV"]);
    expect(await page.locator("#tool-detail .about").textContent()).toBe("The weather in a city for the next days.");
    expect(await page.getAttribute("#tool-arg-days", "aria-required")).toBe("true");
    expect(await page.locator("#tool-arg-city-about").textContent()).toBe("where");
    expect(errors).toEqual([]);
  });

  it("runs the tool and shows its result, its own failure, and a refusal of its arguments", async () => {
    const { page, errors } = playground;
    await page.keyboard.type("Oslo");
    await page.keyboard.press("Tab");
    await page.selectOption("#tool-arg-unit", '"F"');
    await page.focus("#tool-arg-days");
    await page.keyboard.type("2");
    await page.selectOption("#tool-arg-hourly", "true");
    await page.fill("#tool-arg-where", '{ "lat": 59.9 }');
    await tabTo(page, "#tool-run");
    await page.keyboard.press("Enter");
    expect(await answer()).toEqual([
      "Result",
      JSON.stringify(
        { city: "Oslo", unit: "F", days: 2, hourly: true, where: { lat: 59.9 }, temperatures: [20, 21] },
        null,
        2,
      ),
    ]);

    await page.fill("#tool-arg-city", "Atlantis");
    await page.press("#tool-arg-city", "Enter");
    await page.waitForFunction(() => document.querySelector("#tool-answer h4")?.textContent?.startsWith("Error"));
    expect(await answer()).toEqual(["Error: tool_failed", "no weather station in Atlantis"]);

    await page.fill("#tool-arg-city", "");
    await page.press("#tool-arg-days", "Enter");
    await page.waitForFunction(() => document.querySelector("#tool-answer pre")?.textContent?.includes("missing"));
    expect(await answer()).toEqual(["Error: bad_arguments", "argument 'city' is missing"]);

    await page.fill("#tool-arg-city", "Oslo");
    await page.fill("#tool-arg-where", "{ lat: ");
    await page.click("#tool-run");
    await page.waitForFunction(() => document.querySelector("#tool-answer pre")?.textContent?.includes("not JSON"));
    expect(await answer()).toEqual(["Error: bad_arguments", "argument 'where': not JSON"]);
    // The one refusal Chromium logs is the server's 400 for the missing city, asked for above.
    expect(errors).toEqual(["Failed to load resource: the server responded with a status of 400 (Bad Request)"]);
  });

  for (const { width, height, scheme } of LOOKS) {
    it(`shows the tool playground whole at ${width} px, ${scheme}`, async () => {
      const { page } = playground;
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: scheme });
      const within = async (selector: string) => expect(await inView(page, selector), selector).toBe(true);
      await page.click('#pages [data-page="tools"]');
      await within('#pages [data-page="tools"]');
      await page.click('#tool-list li[data-tool="echo"] button');
      await page.waitForSelector("#tool-arg-text");
      await within('#tool-list li[data-tool="forecast"]');
      await within("#tool-arg-text");
      await page.fill("#tool-arg-text", "a rather long line of text to see that the answer wraps within the page");
      await page.click("#tool-run");
      await page.waitForSelector("#tool-answer pre");
      await within("#tool-run");
      await within("#tool-answer pre");
      // Text and its background apart in either scheme.
      expect(await contrast(page, "#tools-page")).toBeGreaterThan(100);
      expect(await contrast(page, "#tool-answer pre")).toBeGreaterThan(100);
    });
  }

  it("lists a plain function as one with no schema, and runs it with its argument list as JSON", async () => {
    const { page, server } = playground;
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${server.url}/agents/Plain/`);
    await page.waitForSelector("body[data-ready]");
    await page.click('#pages [data-page="tools"]');
    await page.waitForSelector('#tool-list li[data-tool="sum"]');
    expect(await page.locator('#tool-list li[data-tool="sum"] .meta').textContent()).toBe(
      "a plain function: no schema",
    );
    await page.click('#tool-list li[data-tool="sum"] button');
    await page.waitForSelector("#tool-arg-list");
    expect(await page.inputValue("#tool-arg-list")).toBe("[]");
    await page.fill("#tool-arg-list", "[2, 3, 37]");
    await page.click("#tool-run");
    expect(await answer()).toEqual(["Result", "42"]);
    await page.fill("#tool-arg-list", "[2, ");
    await page.click("#tool-run");
    await page.waitForFunction(() => document.querySelector("#tool-answer pre")?.textContent?.includes("not JSON"));
    expect(await answer()).toEqual(["Error: bad_arguments", "arguments: not JSON"]);
  });

  it("sends no request off the server's origin", () => {
    const origin = new URL(playground.server.url).origin;
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith("data:"))).toEqual([]);
  });
});
