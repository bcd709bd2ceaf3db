// The playground of a server that is given new builds (`serve --watch`): in headless Chromium, a
// save that does not build shows in the status line (its diagnostics on hover) while the page
// stays usable, and a new good build redraws the graph.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toSvg } from "@autograms/compiler";
import { Agent, type Graph } from "@autograms/runtime";
import { listen, type RunningServer } from "@autograms/server";
import { openStore, type Store } from "@autograms/store";
import { type ChromiumPages, haveChromium, sharedChromium, pageErrors, skippedWithout } from "../support/chromium.js";
import { TestModel } from "../runtime/helpers.js";
import { EDITS, SHOP, shopGraph, WAITS } from "./edit-table.js";

const suite = haveChromium ? describe : describe.skip;
suite(`the playground follows the builds of a watched agent${skippedWithout}`, () => {
  let browser: ChromiumPages;
  let server: RunningServer;
  let store: Store;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "autograms-playground-builds-"));
    store = await openStore(`sqlite:${join(dir, "threads.db")}`);
    server = await listen({
      agent: new Agent(shopGraph(SHOP), { model: new TestModel() }),
      store,
      port: 0,
      watching: true,
      playground: { drawGraph: (g: Graph) => toSvg(g) },
    });
    browser = await sharedChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("shows a failed build in the status line, then redraws the graph of the next good one", async () => {
    const page = await browser.newPage();
    const errors = pageErrors(page);
    await page.goto(`${server.url}/`);
    await page.waitForSelector("body[data-ready]");
    expect(await page.locator("#graph-box g.node").count()).toBe(drawnNodes(shopGraph(SHOP)));

    server.buildFailed(
      "1 error in shop/agent.ts",
      "shop/agent.ts:7:15 - error argument_type: chatExact takes a string",
    );
    await page.waitForFunction(() => /does not build/.test(document.querySelector("#status")!.textContent ?? ""));
    expect(await page.locator("#status").textContent()).toBe(
      "The latest save does not build (1 error in shop/agent.ts); the last good build is served.",
    );
    expect(await page.locator("#status").getAttribute("title")).toMatch(/shop\/agent\.ts:7:15 - error/);
    expect(await page.locator("#status").getAttribute("class")).toBe("error");

    const inserted = EDITS.find((r) => r.edit === "insert a statement right after X")!.change(SHOP);
    server.serve({ agent: new Agent(shopGraph(inserted), { model: new TestModel() }) });
    await page.waitForFunction(() => /new build/.test(document.querySelector("#status")!.textContent ?? ""));
    // The picture is at the level of the code (compiler nodes folded): the inserted statement adds one.
    expect(drawnNodes(shopGraph(inserted))).toBe(drawnNodes(shopGraph(SHOP)) + 1);
    expect(await page.locator("#graph-box g.node").count()).toBe(drawnNodes(shopGraph(inserted)));
    expect(errors).toEqual([]);
  });
});

describe("threads an edit left unable to resume", () => {
  let server: RunningServer;
  let store: Store;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "autograms-stale-threads-"));
    store = await openStore(`sqlite:${join(dir, "threads.db")}`);
    server = await listen({
      agent: new Agent(shopGraph(SHOP), { model: new TestModel() }),
      store,
      port: 0,
      watching: true,
      playground: { drawGraph: (g: Graph) => toSvg(g) },
    });
  });
  afterAll(async () => {
    await server?.close();
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const say = async (thread: string, message: string | null) => {
    const res = await fetch(`${server.url}/api/threads/${thread}/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message }),
    });
    expect(res.status).toBe(200);
    await res.text();
  };
  const listed = async () =>
    (
      (await (await fetch(`${server.url}/api/threads?stale=1`)).json()) as {
        threads: { id: string; stale: string | null }[];
      }
    ).threads;
  const shown = async (id: string) =>
    ((await (await fetch(`${server.url}/api/threads/${id}`)).json()) as { thread: { stale: string | null } }).thread;

  it("are marked stale, with why, in the API and the playground, which moves one to a node named", async () => {
    // The first message of a wait is the one that opens the conversation: here the opening.
    for (const m of [null, ...WAITS.checkout.slice(1)]) await say("at-checkout", m);
    for (const m of [null, ...WAITS.pay.slice(1)]) await say("in-pay", m);
    expect((await listed()).map((t) => t.stale)).toEqual([null, null]);
    // Without ?stale=1 the list does not look (no memory is loaded).
    const plain = (await (await fetch(`${server.url}/api/threads`)).json()) as { threads: object[] };
    expect(plain.threads.every((t) => !("stale" in t))).toBe(true);

    const row = EDITS.find((r) => r.edit === "change X's own instruction")!;
    server.serve({ agent: new Agent(shopGraph(row.change(SHOP)), { model: new TestModel() }) });
    const stale = Object.fromEntries((await listed()).map((t) => [t.id, t.stale]));
    expect(stale["at-checkout"]).toMatch((row.outcome as { stale: RegExp }).stale);
    expect(stale["in-pay"]).toBeNull();
    expect((await shown("at-checkout")).stale).toMatch((row.outcome as { stale: RegExp }).stale);
    expect((await shown("in-pay")).stale).toBeNull();
    if (!haveChromium) return;

    // The playground marks it, says why, and moves it to the node the user names.
    const browser = await sharedChromium();
    try {
      const page = await browser.newPage();
      const errors = pageErrors(page);
      await page.goto(`${server.url}/`);
      await page.waitForSelector("body[data-ready]");
      const item = page.locator('#thread-list li[data-thread="at-checkout"]');
      expect(await item.getAttribute("data-state")).toBe("stale");
      expect(await item.locator(".state").getAttribute("title")).toMatch((row.outcome as { stale: RegExp }).stale);
      expect(await page.locator('#thread-list li[data-thread="in-pay"]').getAttribute("data-state")).toBe("waiting");
      expect(await page.locator('#thread-list li[data-thread="in-pay"] .migrate').count()).toBe(0);
      page.on("dialog", (d) => void d.accept("checkout"));
      await item.locator(".migrate").click();
      await page.waitForSelector('#thread-list li[data-thread="at-checkout"][data-state="waiting"]');
      expect((await shown("at-checkout")).stale).toBeNull();
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

/** The nodes the playground's picture of the graph shows. */
function drawnNodes(graph: Graph): number {
  return toSvg(graph).match(/ data-node="/g)?.length ?? 0;
}
