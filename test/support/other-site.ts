// Pages "of other sites" in Chromium, for the tests of what a server lets a web page do: the page's
// document is served by the test (page.route), its requests go out for real.
import type { Browser, Page } from "playwright-core";

/**
 * Chromium's flags for these pages: made-up names under .test resolve to 127.0.0.1, and Chromium's
 * own guard for loopback (Local Network Access: a public page asks the user before it reaches
 * loopback) is off, as in other browsers or once the user has said yes: the server's guards are
 * what is tested.
 */
export const OTHER_SITE_FLAGS = [
  "--host-resolver-rules=MAP *.test 127.0.0.1",
  "--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessSendPreflights,PrivateNetworkAccessRespectPreflightResults",
];

/** A page at `origin` whose document the test serves. */
export async function pageAt(browser: Browser, origin: string): Promise<Page> {
  const page = await browser.newPage();
  await page.route(`${origin}/`, (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>other site</title>" }),
  );
  await page.goto(`${origin}/`);
  return page;
}

/** What the page's own fetch() gets: the answer's status and text, or the error it threw. */
export const fetchFrom = (page: Page, url: string, init: RequestInit = {}) =>
  page.evaluate(
    async ([u, i]) => {
      try {
        const res = await fetch(u, i);
        return { status: res.status, body: await res.text() };
      } catch (err) {
        return { error: String(err) };
      }
    },
    [url, init] as const,
  );
