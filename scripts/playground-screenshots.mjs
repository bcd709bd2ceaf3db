#!/usr/bin/env node
// Renders the playground in headless Chromium and writes the pictures docs/serving.md shows:
// docs/img/playground.png (a reply streaming in, its node's line lit in the agent's source),
// docs/img/playground-turn.png (a turn picked on the timeline: its prompts and calls, the variables
// it changed), docs/img/playground-what-if.png (another value of a variable tried from that turn:
// the next message's reply on a fork beside the original's), docs/img/playground-graph.png (the
// graph tab) and docs/img/playground-phone.png (the page 390 px wide). The tutor sample, the offline model and a throwaway SQLite store; no network.
//
//   npm run build && node scripts/playground-screenshots.mjs [--chromium PATH]
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { toSvg } from "@autograms/compiler";
import { Agent, OfflineModel } from "@autograms/runtime";
import { listen } from "@autograms/server";
import { openStore } from "@autograms/store";
import { chromium } from "playwright-core";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const at = process.argv.indexOf("--chromium");
const executablePath = at > 0 ? process.argv[at + 1] : "/usr/bin/chromium";
const graph = JSON.parse(readFileSync(join(root, "samples/tutor/agent.graph.json"), "utf8"));
const { turns } = JSON.parse(readFileSync(join(root, "samples/tutor/conversation.json"), "utf8"));
const out = join(root, "docs/img");
mkdirSync(out, { recursive: true });

const dir = mkdtempSync(join(tmpdir(), "autograms-screenshots-"));
const store = await openStore(`sqlite:${join(dir, "threads.db")}`);
// Words written one at a time, so the picture catches a reply half streamed.
const sources = [
  { path: "samples/tutor/agent.ts", text: readFileSync(join(root, "samples/tutor/agent.ts"), "utf8"), role: "agent" },
];
const server = await listen({
  agent: new Agent(graph, { model: new OfflineModel({ wordDelayMs: 120 }) }),
  store,
  port: 0,
  playground: { drawGraph: (g, options) => toSvg(g, options), sources: () => sources },
});
const browser = await chromium.launch({
  executablePath,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1500, height: 950 }, deviceScaleFactor: 1 });
  await page.goto(server.url + "/");
  await page.waitForSelector("body[data-ready]");
  const idle = () =>
    page.waitForFunction(
      () => !document.querySelector(".msg.streaming") && !document.querySelector("#input").disabled,
      null,
      { timeout: 60_000 },
    );
  await page.click("#new-thread");
  await idle();
  for (const t of turns.slice(1, 4)) {
    await page.fill("#input", t.user);
    await page.press("#input", "Enter");
    await idle();
  }
  await page.fill("#input", turns[4].user);
  await page.press("#input", "Enter");
  await idle();
  // A question at the next unit: the model's answer, caught streaming a few words in, its node lit.
  await page.fill("#input", "Yes: why does that rule work?");
  await page.press("#input", "Enter");
  await page.waitForFunction(
    () => (document.querySelector(".msg.streaming .text")?.textContent ?? "").split(" ").length > 8,
  );
  await page.screenshot({ path: join(out, "playground.png") });
  await idle();
  await page.click('#turns li[data-turn="2"] button');
  await page.waitForSelector("#turn-detail .calls");
  await page.screenshot({ path: join(out, "playground-turn.png") });
  page.once("dialog", (d) => void d.accept(JSON.stringify("What is 2/3 + 1/3?")));
  await page.click('#turn-detail .edit-var[data-var="problem"]');
  await page.waitForSelector("#turn-detail .what-if");
  await page.locator("#turn-detail .what-if").scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(out, "playground-what-if.png") });
  await page.click("#graph-tab");
  await page.screenshot({ path: join(out, "playground-graph.png") });
  await page.click("#source-tab");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(out, "playground-phone.png") });
  console.log(
    "wrote docs/img/playground.png, playground-turn.png, playground-what-if.png, playground-graph.png and playground-phone.png",
  );
} finally {
  await browser.close();
  await server.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
