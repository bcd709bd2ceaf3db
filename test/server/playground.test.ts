// The playground (`GET /`): its files as served, then the page in headless Chromium (Debian's
// chromium driven by playwright-core) against a real server on a real SQLite store: a chat of
// several turns through the page, the node being run lit, a turn's memory and variables, fork,
// and a reload that keeps the thread.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toSvg } from "@autograms/compiler";
import { Agent, OfflineModel, type Graph } from "@autograms/runtime";
import { listen, type RunningServer } from "@autograms/server";
import { openStore, type Store } from "@autograms/store";
import type { Browser, Page } from "playwright-core";
import { playgroundRoutes } from "../../server/src/playground/routes.js";

const CHROMIUM = "/usr/bin/chromium";
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];
const haveChromium = existsSync(CHROMIUM);

const ROOT = join(import.meta.dirname, "..", "..");
const tutor = JSON.parse(readFileSync(join(ROOT, "samples/tutor/agent.graph.json"), "utf8")) as Graph;
const conversation = JSON.parse(readFileSync(join(ROOT, "samples/tutor/conversation.json"), "utf8")) as { turns: { user: string; agent: string | null }[] };
const replies = conversation.turns.map((t) => t.agent);

describe("the playground's files", () => {
  const app = playgroundRoutes({ graph: () => tutor, drawGraph: (g) => toSvg(g) });

  it("serves a page that loads only its own script and style, under a content security policy", async () => {
    const res = await app.request("/");
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toMatch(/default-src 'self'; script-src 'self';/);
    const html = await res.text();
    const refs = [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
    expect(refs.sort()).toEqual(["data:,", "playground/app.js", "playground/style.css"]);
    expect(html).not.toMatch(/<script>|\bon\w+="/);
  });

  it("serves its script and style from strings in the package: JavaScript that parses, nothing from another origin", async () => {
    const js = await app.request("/playground/app.js");
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const script = await js.text();
    expect(() => new Function(script)).not.toThrow();
    const css = await (await app.request("/playground/style.css")).text();
    for (const text of [script, css]) expect(text).not.toMatch(/https?:\/\/|@import|url\(/);
  });

  it("draws the graph with the function it is given, and says so when it has none", async () => {
    const svg = await app.request("/playground/graph.svg");
    expect(svg.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(await svg.text()).toBe(toSvg(tutor));
    const bare = playgroundRoutes({ graph: () => tutor });
    const none = await bare.request("/playground/graph.svg");
    expect(none.status).toBe(404);
    expect(await none.json()).toEqual({ error: { code: "not_found", message: "this server draws no graph (it was given no drawGraph function)" } });
  });
});

// Without the browser the suite is skipped, and its name says why.
const browserSuite = haveChromium ? describe : describe.skip;
browserSuite(`the playground in headless Chromium${haveChromium ? "" : ` (skipped: ${CHROMIUM} is not installed; apt-get install chromium)`}`, () => {
  let browser: Browser;
  let server: RunningServer;
  let store: Store;
  let dir: string;
  let page: Page;
  const requests: string[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "autograms-playground-"));
    store = await openStore(`sqlite:${join(dir, "threads.db")}`);
    server = await listen({ agent: new Agent(tutor, { model: new OfflineModel() }), store, port: 0, drawGraph: (g: Graph) => toSvg(g) });
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
    page = await browser.newPage({ viewport: { width: 1500, height: 950 } });
    page.on("request", (r) => requests.push(r.url()));
    page.on("pageerror", (e) => errors.push(String(e)));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const api = async <T>(path: string): Promise<T> => (await fetch(server.url + path)).json() as Promise<T>;
  const agentTexts = () => page.locator(".msg.agent:not(.note) .text").allTextContents();
  const idle = () => page.waitForFunction(() => !document.querySelector(".msg.streaming") && !(document.querySelector("#input") as HTMLTextAreaElement).disabled);

  /** Records, in the page, each node as it is lit (the class changes, in order, as the steps arrive). */
  const recordLit = () => page.evaluate(() => {
    const w = window as unknown as { lit: string[] };
    w.lit = [];
    new MutationObserver((records) => {
      for (const r of records) {
        const el = r.target as Element;
        if (!(r.oldValue ?? "").split(" ").includes("lit") && el.classList.contains("lit")) w.lit.push(el.getAttribute("data-node")!);
      }
    }).observe(document.getElementById("graph-box")!, { subtree: true, attributes: true, attributeFilter: ["class"], attributeOldValue: true });
  });
  const litSoFar = () => page.evaluate(() => (window as unknown as { lit: string[] }).lit);

  async function say(text: string): Promise<void> {
    await page.fill("#input", text);
    await page.press("#input", "Enter");
    await idle();
  }

  it("holds a conversation of several turns: the agent's opening, then each reply as the page streams it", async () => {
    await page.goto(server.url + "/");
    await page.waitForSelector("body[data-ready]");
    expect(await page.locator("#agent-name").textContent()).toBe("FractionTutor");
    expect(await page.locator("#graph-box g.node").count()).toBe(tutor.nodes.length);
    await recordLit();
    await page.click("#new-thread");
    await idle();
    for (const t of conversation.turns.slice(1, 4)) await say(t.user);
    expect(await agentTexts()).toEqual(replies.slice(0, 4));
    expect(await page.locator(".msg.user .text").allTextContents()).toEqual(conversation.turns.slice(1, 4).map((t) => t.user));
    expect(errors).toEqual([]);
    // Everything the page loaded came from the server itself.
    expect(requests.filter((u) => !u.startsWith(server.url))).toEqual([]);
  });

  it("lights each node as its step arrives, and leaves lit the node the conversation waits at", async () => {
    const threadId = decodeURIComponent(new URL(page.url()).hash.replace("#thread=", ""));
    const { turns } = await api<{ turns: { trace: string[] }[] }>(`/api/threads/${encodeURIComponent(threadId)}`);
    const lit = await litSoFar();
    // Each step lights its node: the order of the trace, a node lit again only after another one.
    const visits = turns.flatMap((t) => t.trace).filter((node, i, all) => node !== all[i - 1]);
    expect(lit.filter((node, i) => node !== lit[i - 1])).toEqual(visits);
    const last = turns.at(-1)!.trace.at(-1)!;
    expect(await page.locator("#graph-box g.node.lit").evaluateAll((gs) => gs.map((g) => g.getAttribute("data-node")))).toEqual([last]);
    expect(await page.locator("#lit-label").textContent()).toBe(last);
    const passed = await page.locator("#graph-box g.node.passed").evaluateAll((gs) => gs.map((g) => g.getAttribute("data-node")!));
    expect(new Set([...passed, last])).toEqual(new Set(turns.at(-1)!.trace));
  });

  it("shows a turn's memory as it was and the variables the turn changed", async () => {
    const threadId = decodeURIComponent(new URL(page.url()).hash.replace("#thread=", ""));
    await page.click('#turns li[data-turn="4"] button');
    await page.waitForSelector("#turn-detail .memory");
    const { memory } = await api<{ memory: { stack: { vars: Record<string, unknown> }[] } }>(`/api/threads/${encodeURIComponent(threadId)}/memory?turn=4`);
    expect(memory.stack[0]!.vars.correct).toBe(1);
    const globals = page.locator("#turn-detail .frame").first();
    expect(await globals.locator("dt").allTextContents()).toEqual(Object.keys(memory.stack[0]!.vars).filter((n) => !n.startsWith("_")));
    expect(await globals.locator("dt:text-is('correct') + dd").textContent()).toBe("1");
    const { turns } = await api<{ turns: { seq: number; changes: { name: string }[] }[] }>(`/api/threads/${encodeURIComponent(threadId)}`);
    const changed = turns.find((t) => t.seq === 4)!.changes;
    expect(await page.locator("#turn-detail table.changes tbody tr").count()).toBe(changed.length);
    expect(await page.locator("#turn-detail table.changes tbody td:first-child").allTextContents()).toContain("correct");
    // An earlier turn: the memory before the answer was counted.
    await page.click('#turns li[data-turn="2"] button');
    await page.waitForFunction(() => document.querySelector("#turn-detail h3")?.textContent === "After turn 2");
    expect(await page.locator("#turn-detail .frame").first().locator("dt:text-is('correct') + dd").textContent()).toBe("0");
  });

  it("forks from a turn: a new thread with the turns up to it, which goes on from there", async () => {
    const original = decodeURIComponent(new URL(page.url()).hash.replace("#thread=", ""));
    await page.click("#fork");
    await page.waitForFunction((id) => location.hash !== "#thread=" + encodeURIComponent(id) && document.querySelectorAll("#turns li").length === 2, original);
    const fork = decodeURIComponent(new URL(page.url()).hash.replace("#thread=", ""));
    expect(await page.locator("#thread-list li").count()).toBe(2);
    expect(await page.locator("#thread-list li.active").getAttribute("data-thread")).toBe(fork);
    expect(await agentTexts()).toEqual(replies.slice(0, 2));
    await say(conversation.turns[2]!.user);
    expect(await agentTexts()).toEqual(replies.slice(0, 3));
    const info = await api<{ thread: { forkedFrom: { id: string; turn: number }; version: number } }>(`/api/threads/${encodeURIComponent(fork)}`);
    expect(info.thread).toMatchObject({ forkedFrom: { id: original, turn: 2 }, version: 3 });
    expect(await page.locator(`#thread-list li[data-thread="${fork}"] .meta`).textContent()).toBe(`3 turns · fork of ${original.slice(0, 8)} at turn 2`);
  });

  it("keeps the thread on reload", async () => {
    const before = page.url();
    await page.reload();
    await page.waitForSelector("body[data-ready]");
    expect(page.url()).toBe(before);
    expect(await agentTexts()).toEqual(replies.slice(0, 3));
    expect(await page.locator("#turns li").count()).toBe(3);
    expect(await page.locator("#graph-box g.node.lit").count()).toBe(1);
    expect(errors).toEqual([]);
  });
});
