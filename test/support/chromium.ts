// Debian's Chromium for the page tests, driven by playwright-core (no browser download). Without
// it a browser suite is skipped, and its name says why.
import { existsSync } from "node:fs";
import type { Browser, Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
// Without the background-networking flags Chromium keeps dialling out, refused on a closed network.
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];
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
