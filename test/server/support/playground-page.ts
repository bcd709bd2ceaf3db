// The playground's page in headless Chromium against a real server on a real SQLite store, for
// the playground's browser suites: the tutor sample's graph and recorded conversation, a server
// of it in a temporary folder, a page of this worker's Chromium (test/support/chromium.ts), and
// the waits every suite makes. Each suite gives its own model and playground options.
import { afterAll, beforeAll } from "vitest";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Agent, Graph } from "@autograms/runtime";
import { listen, type ListenOptions, type RunningServer } from "@autograms/server";
import { openStore, type Store } from "@autograms/store";
import type { Page } from "playwright-core";
import { pageErrors, sharedChromium, type ChromiumPages } from "../../support/chromium.js";

const ROOT = join(import.meta.dirname, "..", "..", "..");
export const tutorSource = readFileSync(join(ROOT, "samples/tutor/agent.ts"), "utf8");
export const tutor = JSON.parse(readFileSync(join(ROOT, "samples/tutor/agent.graph.json"), "utf8")) as Graph;
export const conversation = JSON.parse(readFileSync(join(ROOT, "samples/tutor/conversation.json"), "utf8")) as {
  turns: { user: string; agent: string | null }[];
};

export interface PlaygroundPage {
  readonly server: RunningServer;
  readonly store: Store;
  /** The page opened for the suite (at about:blank until a test goes to the server). */
  readonly page: Page;
  /** Another page, for a test of its own (closed with the suite if the test does not). */
  newPage(viewport: { width: number; height: number }): Promise<Page>;
  /** Script errors and console errors of the suite's page so far. */
  readonly errors: string[];
  /** Until no reply streams and the input takes text. */
  idle(page?: Page): Promise<void>;
  /** Sends `text` as the user, and waits for the reply. */
  say(text: string): Promise<void>;
  /** The thread the page shows (from its address). */
  threadId(): string;
}

/**
 * For a browser suite: before its tests, a server of `agent()` on a SQLite store in a temporary
 * folder and a page of the shared Chromium; after them, all gone. The getters hold once the
 * suite's tests run.
 */
export function playgroundInChromium(options: {
  prefix: string;
  agent: () => Agent;
  /** More agents served beside it. */
  agents?: () => ListenOptions["agents"];
  playground: ListenOptions["playground"];
  viewport: { width: number; height: number };
  prices?: ListenOptions["prices"];
}): PlaygroundPage {
  let dir: string | undefined;
  let store: Store | undefined;
  let server: RunningServer | undefined;
  let pages: ChromiumPages | undefined;
  let page: Page | undefined;
  let errors: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), options.prefix));
    store = await openStore(`sqlite:${join(dir, "threads.db")}`);
    server = await listen({
      agent: options.agent(),
      ...(options.agents && { agents: options.agents() }),
      store,
      port: 0,
      playground: options.playground,
      ...(options.prices && { prices: options.prices }),
    });
    pages = await sharedChromium();
    page = await pages.newPage({ viewport: options.viewport });
    errors = pageErrors(page);
  }, 60_000);
  afterAll(async () => {
    await pages?.close();
    await server?.close();
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const idle = async (p = page!) => {
    await p.waitForFunction(
      () =>
        !document.querySelector(".msg.streaming") &&
        !(document.querySelector("#input") as HTMLTextAreaElement).disabled,
    );
  };
  return {
    get server() {
      return server!;
    },
    get store() {
      return store!;
    },
    get page() {
      return page!;
    },
    get errors() {
      return errors;
    },
    newPage: (viewport) => pages!.newPage({ viewport }),
    idle,
    async say(text) {
      await page!.fill("#input", text);
      await page!.press("#input", "Enter");
      await idle();
    },
    threadId: () => decodeURIComponent(new URL(page!.url()).hash.replace("#thread=", "")),
  };
}

/** The mean of the red, green and blue of a computed colour on the page: 0 is black, 255 white. */
export function colourLightness(page: Page, selector: string, property: "backgroundColor" | "color"): Promise<number> {
  return page.evaluate(
    ([s, p]) => {
      const c = getComputedStyle(document.querySelector(s!)!)[p as "color"];
      const [r, g, b] = c.match(/\d+(\.\d+)?/g)!.map(Number);
      return (r! + g! + b!) / 3;
    },
    [selector, property],
  );
}

/** How far apart an element's text and background are: the difference of their lightness (0 to 255). */
export async function contrast(page: Page, selector: string): Promise<number> {
  const [fg, bg] = await Promise.all([
    colourLightness(page, selector, "color"),
    colourLightness(page, selector, "backgroundColor"),
  ]);
  return Math.abs(fg - bg);
}

/** The sizes and colour schemes every browser suite shows its parts whole in. */
export const LOOKS = [1440, 390].flatMap((width) =>
  (["light", "dark"] as const).map((scheme) => ({ width, height: width < 1000 ? 844 : 900, scheme })),
);

/** Whether the first element `selector` names lies whole inside the page's viewport. */
export async function inView(page: Page, selector: string): Promise<boolean> {
  const box = await page.locator(selector).first().boundingBox();
  const { width, height } = page.viewportSize()!;
  return box !== null && box.x >= 0 && box.x + box.width <= width && box.y + box.height <= height;
}

/** Presses Tab, from nothing focused, until the element `selector` names has the focus: it is reachable from the keyboard. */
export async function tabTo(page: Page, selector: string): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  for (let i = 0; i < 120; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((s) => document.activeElement?.matches(s) === true, selector)) return;
  }
  throw new Error(`${selector} is not reached by Tab`);
}
