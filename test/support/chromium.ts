// Debian's Chromium for the page tests, driven by playwright-core (no browser download). Without
// it a browser suite is skipped, and its name says why.
import { existsSync } from "node:fs";
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
// Without the background-networking flags Chromium keeps dialling out, refused on a closed network.
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
export const haveChromium = existsSync(CHROMIUM);
export const skippedWithout = haveChromium ? "" : ` (skipped: ${CHROMIUM} is not installed; apt-get install chromium)`;

export async function launchChromium(args: string[] = []): Promise<Browser> {
  const { chromium } = await import("playwright-core");
  return chromium.launch({ executablePath: CHROMIUM, args: [...FLAGS, ...args] });
}

/** Pages of the shared Chromium, each in a context of its own, as Browser.newPage makes them. */
export interface ChromiumPages {
  newPage(options?: BrowserContextOptions): Promise<Page>;
  /** Closes the pages made here (and their contexts); the browser stays for the next file. */
  close(): Promise<void>;
}

let shared: Promise<Browser> | undefined;

/**
 * The Chromium of this test worker, for the files that need no flags of their own. Starting one
 * costs a second or two of CPU: the first file launches it, the next ones in the worker take it
 * (a worker keeps its modules from file to file: vitest.config.ts). It ends with the worker (its
 * pipe to the worker closes). Each page has a context of its own: no cookies, storage or routes
 * shared between files or pages.
 */
export async function sharedChromium(): Promise<ChromiumPages> {
  let browser = await (shared ??= launchChromium());
  if (!browser.isConnected()) browser = await (shared = launchChromium());
  const contexts = new Set<BrowserContext>();
  return {
    async newPage(options) {
      const context = await browser.newContext(options);
      contexts.add(context);
      const page = await context.newPage();
      page.once("close", () => {
        contexts.delete(context);
        void context.close().catch(() => {});
      });
      return page;
    },
    async close() {
      await Promise.all([...contexts].map((c) => c.close().catch(() => {})));
      contexts.clear();
    },
  };
}

/** Collects what goes wrong in a page: script errors, and console errors (a resource refused by the CSP, a missing file). */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => void (m.type() === "error" && errors.push(m.text())));
  return errors;
}

/**
 * Records, in the page, each element below `#boxId` as it gets the class `lit` (its `attribute`,
 * e.g. the node's name or the line's number). Mutation records arrive in batches, so what a class
 * became is the old value of the element's next record (or its class now, for its last).
 */
export function recordLitElements(page: Page, boxId: string, attribute: string): Promise<void> {
  return page.evaluate(
    ([id, attr]) => {
      const w = window as unknown as { lit: string[] };
      w.lit = [];
      const has = (cls: string | null) => (cls ?? "").split(/\s+/).includes("lit");
      new MutationObserver((records) => {
        records.forEach((r, i) => {
          const el = r.target as Element;
          const next = records.slice(i + 1).find((x) => x.target === el);
          if (!has(r.oldValue) && has(next ? next.oldValue : el.getAttribute("class")))
            w.lit.push(el.getAttribute(attr)!);
        });
      }).observe(document.getElementById(id)!, {
        subtree: true,
        attributes: true,
        attributeFilter: ["class"],
        attributeOldValue: true,
      });
    },
    [boxId, attribute] as const,
  );
}

/** What recordLitElements saw lit so far, in order. */
export function litElementsSoFar(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { lit: string[] }).lit);
}
