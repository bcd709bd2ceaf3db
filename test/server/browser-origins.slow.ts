// The browser cases of a loopback server, in headless Chromium (playwright-core): its
// --host-resolver-rules point made-up names at 127.0.0.1, and the pages "of other sites" are
// served by the test (page.route), so DNS rebinding and cross-origin requests happen for real,
// offline. A rebound page (its name now resolving to the server) cannot read the threads; a page
// of another site cannot make a turn with a simple (preflight-free) request; a browser app on an
// origin allowed by --cors calls the API.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { haveChromium, launchChromium, skippedWithout } from "../support/chromium.js";
import { fetchFrom, OTHER_SITE_FLAGS, pageAt as pageOf } from "../support/other-site.js";
import { startTestServer, tempFolder, type TestServer } from "./support/harness.js";

const browserSuite = haveChromium ? describe : describe.skip;
browserSuite(`pages of other sites in headless Chromium${skippedWithout}`, () => {
  const folder = tempFolder("autograms-origins-");
  let browser: Browser;
  let server: TestServer;
  let open: TestServer;
  let port: string;
  const app = "http://app.test:5173";

  beforeAll(async () => {
    server = await startTestServer(folder.path, { cors: [app] });
    // The same server with the rebound name allowed: what the page would read without the check.
    open = await startTestServer(folder.path, { store: server.store, allowedHosts: ["rebound.test"] });
    port = new URL(server.url).port;
    browser = await launchChromium(OTHER_SITE_FLAGS);
    await server.store.createThread("private");
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await open?.close();
    await server?.close();
    folder.remove();
  });

  const pageAt = (origin: string) => pageOf(browser, origin);
  const read = fetchFrom;

  it("keeps a rebound page (its name now resolving to 127.0.0.1) from reading the threads", async () => {
    const page = await pageAt(`http://rebound.test:${port}`);
    // Same origin for the browser: no CORS stands in the way, the Host check does.
    const refused = await read(page, "/api/threads");
    expect(refused).toMatchObject({ status: 403, body: expect.stringContaining("forbidden_host") });
    const openPort = new URL(open.url).port;
    const control = await pageAt(`http://rebound.test:${openPort}`);
    const read2 = await read(control, "/api/threads");
    expect(read2).toMatchObject({ status: 200, body: expect.stringContaining('"private"') });
  });

  it("keeps another site's page from making a turn with a request that needs no preflight", async () => {
    const page = await pageAt("http://attacker.test:8080");
    const body = JSON.stringify({ message: "do something" });
    // text/plain and no-cors: what a page may send anywhere without asking first.
    await read(page, `${server.url}/api/threads/victim/runs`, { method: "POST", body, mode: "no-cors" });
    await read(page, `http://localhost:${port}/api/chat`, {
      method: "POST",
      body: JSON.stringify({
        id: "victim",
        messages: [{ id: "m", role: "user", parts: [{ type: "text", text: "x" }] }],
      }),
      mode: "no-cors",
    });
    await read(page, `${server.url}/api/threads/private`, { method: "DELETE", mode: "no-cors" });
    expect(await server.store.thread("victim")).toBeNull();
    expect(await server.store.thread("private")).not.toBeNull();
    // With JSON it must ask first, and the server does not allow it.
    const asked = await read(page, `${server.url}/api/threads/victim/runs`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json" },
    });
    expect(asked).toMatchObject({ error: expect.stringContaining("Failed to fetch") });
    expect(await server.store.thread("victim")).toBeNull();
  });

  it("lets a browser app on an origin given with --cors call the API", async () => {
    const page = await pageAt(app);
    const res = await read(page, `${server.url}/api/threads/from-app/runs`, {
      method: "POST",
      body: JSON.stringify({ message: "hello" }),
      headers: { "content-type": "application/json" },
    });
    expect(res).toMatchObject({ status: 200, body: expect.stringContaining("event: run-finish") });
    expect((await server.store.thread("from-app"))!.version).toBe(2);
  });
});
