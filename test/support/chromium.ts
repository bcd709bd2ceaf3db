// Debian's Chromium for the page tests, driven by playwright-core (no browser download). Without
// it a browser suite is skipped, and its name says why.
import { existsSync } from "node:fs";
import type { Browser, Page } from "playwright-core";

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
