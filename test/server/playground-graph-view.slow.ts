// The playground's graph at the level of the code, in headless Chromium against a real server:
// a step of a node folded into a statement lights that statement's node, and the "raw graph" box
// draws every node of the graph (with the marks kept).
import { describe, expect, it } from "vitest";
import { toSvg } from "@autograms/compiler";
import { Agent, OfflineModel } from "@autograms/runtime";
import type { PlaygroundSource } from "@autograms/server";
import { haveChromium, skippedWithout } from "../support/chromium.js";
import { conversation, playgroundInChromium, tutor, tutorSource as source } from "./support/playground-page.js";

const sources: PlaygroundSource[] = [{ path: "samples/tutor/agent.ts", text: source, role: "agent" }];

/** Each node of the graph → the node of the code view that stands for it. */
const standIn = new Map<string, string>();
for (const m of toSvg(tutor, { source }).matchAll(/data-node="([^"]+)"(?: data-nodes="([^"]+)")?/g)) {
  standIn.set(m[1]!, m[1]!);
  for (const folded of m[2]?.split(" ") ?? []) standIn.set(folded, m[1]!);
}

const browserSuite = haveChromium ? describe : describe.skip;
browserSuite(`the playground's graph views in headless Chromium${skippedWithout}`, () => {
  const playground = playgroundInChromium({
    prefix: "autograms-graph-view-",
    agent: () => new Agent(tutor, { model: new OfflineModel({ wordDelayMs: 5 }) }),
    playground: { drawGraph: (g, options) => toSvg(g, options), sources: () => sources },
    viewport: { width: 1440, height: 900 },
  });
  const { idle } = playground;

  it("serves the code view by default and the raw graph on ?view=raw, refusing other views", async () => {
    const { server } = playground;
    const code = await (await fetch(`${server.url}/playground/graph.svg`)).text();
    expect(code).toBe(toSvg(tutor, { source }));
    const raw = await (await fetch(`${server.url}/playground/graph.svg?view=raw`)).text();
    expect(raw).toBe(toSvg(tutor, { view: "raw", source }));
    const bad = await fetch(`${server.url}/playground/graph.svg?view=folded`);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain("view: code or raw is expected, not 'folded'");
  });

  it("lights the stand-in of a folded node as a run steps through it", async () => {
    const { page, server, errors } = playground;
    await page.goto(server.url + "/");
    await page.waitForSelector("body[data-ready]");
    await page.click("#graph-tab");
    expect(await page.locator("#graph-box [data-nodes]").count()).toBeGreaterThan(0);
    // At each change of the "running" label, which node of the picture is lit.
    await page.evaluate(() => {
      const w = window as unknown as { seen: [string, string | null][] };
      w.seen = [];
      const label = document.getElementById("lit-label")!;
      new MutationObserver(() => {
        const lit = document.querySelectorAll("#graph-box .lit");
        w.seen.push([
          label.getAttribute("data-node") ?? "",
          lit.length === 1 ? lit[0]!.getAttribute("data-node") : `${lit.length} lit`,
        ]);
      }).observe(label, { childList: true, characterData: true, subtree: true });
    });
    await page.click("#new-thread");
    await idle();
    for (const t of conversation.turns.slice(1, 3)) await playground.say(t.user);
    const seen = await page.evaluate(() =>
      (window as unknown as { seen: [string, string | null][] }).seen.filter(([name]) => name !== ""),
    );
    expect(seen.length).toBeGreaterThan(0);
    for (const [name, lit] of seen) expect(lit, `lit while at ${name}`).toBe(standIn.get(name));
    // Steps arrive in batches, so whether a batch ends on a folded node is chance: a thread whose
    // last turn stopped in one (its trace ends inside the loop's machinery) shows it for sure.
    const id = playground.threadId();
    const folded = "main.for_of_6ddc.item";
    expect(standIn.get(folded)).toBe("main.for_of_6ddc.iterable");
    await page.route(`**/api/threads/${encodeURIComponent(id)}`, async (route) => {
      const response = await route.fetch();
      const view = (await response.json()) as { turns: { trace: string[] }[] };
      view.turns[view.turns.length - 1]!.trace.push(folded);
      await route.fulfill({ response, json: view });
    });
    await page.reload();
    await page.waitForSelector("body[data-ready]");
    await page.click("#graph-tab");
    await page.waitForFunction(
      (name) => document.getElementById("lit-label")?.getAttribute("data-node") === name,
      folded,
    );
    expect(await page.locator("#graph-box .lit").getAttribute("data-node")).toBe("main.for_of_6ddc.iterable");
    await page.unrouteAll();
    expect(errors).toEqual([]);
  });

  it("draws the raw graph when the box is checked, the marks kept, and folds it again when unchecked", async () => {
    const { page, errors } = playground;
    const at = await page.locator("#lit-label").getAttribute("data-node");
    await page.check("#raw-graph");
    await page.waitForSelector(`#graph-box [data-node="main.for_of_6ddc.counter"]`);
    expect(await page.locator("#graph-box [data-nodes]").count()).toBe(0);
    expect(await page.locator("#graph-box g.node").count()).toBe(tutor.nodes.length);
    expect(await page.locator("#graph-box .lit").getAttribute("data-node")).toBe(at);
    expect(await page.locator("#graph-box .passed").count()).toBeGreaterThan(0);
    await page.uncheck("#raw-graph");
    await page.waitForSelector("#graph-box [data-nodes]");
    expect(await page.locator(`#graph-box [data-node="main.for_of_6ddc.counter"]`).count()).toBe(0);
    expect(await page.locator("#graph-box .lit").getAttribute("data-node")).toBe(standIn.get(at!));
    expect(errors).toEqual([]);
  });
});
