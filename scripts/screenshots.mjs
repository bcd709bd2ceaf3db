#!/usr/bin/env node
// Renders the studio in headless Chromium (the Chromium the browser tests use) and writes the
// pictures the docs show to docs/images/. A sample agent is served offline on a throwaway SQLite
// store, a short conversation is held, and each entry of SHOTS is taken in turn: a file name, the
// page's size and theme, and the steps that show what it pictures. Another page of the studio is
// one more line there (`["experiments.png", wide, () => openPage("experiments")]`).
//
// The agent is samples/native-tools (the planet guide: its tools called natively) on the offline
// model. The offline model reports no tokens; for the pictures its calls report an estimate (four
// characters a token) under the model name `offline-estimate`, priced by a made-up table.
//
//   npm run build && node scripts/screenshots.mjs [--chromium PATH]
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { toSvg } from "@autograms/compiler";
import { Agent, OfflineModel } from "@autograms/runtime";
import { listen } from "@autograms/server";
import { openStore } from "@autograms/store";
import { chromium } from "playwright-core";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const at = process.argv.indexOf("--chromium");
const executablePath = at > 0 ? process.argv[at + 1] : "/usr/bin/chromium";
const out = join(root, "docs/images");
mkdirSync(out, { recursive: true });

const wide = { width: 1440, height: 900 };
const phone = { width: 390, height: 844 };

/** The pictures: file, size (and `dark` for the dark theme), and what to show before it is taken. */
const SHOTS = [
  ["chat.png", wide, () => openPage("studio")],
  ["runs.png", wide, () => openPage("runs")],
  ["span-tree.png", wide, openSpans],
  ["metrics.png", wide, () => openPage("metrics")],
  ["dark.png", { ...wide, dark: true }, openSpans],
  ["runs-phone.png", phone, () => openPage("runs")],
  ["tools.png", wide, runLookup],
  ["palette.png", wide, openPalette],
  // Last: it leaves the studio for the API's page.
  ["api-docs.png", wide, () => page.goto(`${server.url}/api/docs`)],
];

/**
 * The tools of samples/react-tools (TypeScript), bundled for plain Node into the throwaway folder,
 * the runtime imported from this repository's build (the folder has no node_modules to find it in).
 */
async function sampleTools(dir) {
  const [bundle] = (
    await build({
      entryPoints: [join(root, "samples/react-tools/tools.ts")],
      bundle: true,
      format: "esm",
      platform: "node",
      external: ["@autograms/runtime"],
      write: false,
      logLevel: "warning",
    })
  ).outputFiles;
  const file = join(dir, "tools.mjs");
  const runtime = JSON.stringify(pathToFileURL(join(root, "runtime/dist/index.js")).href);
  writeFileSync(file, bundle.text.replaceAll('"@autograms/runtime"', runtime));
  return import(pathToFileURL(file).href);
}

/** A rough count for the pictures: four characters a token. */
const estimate = (text) => Math.max(1, Math.round(String(text).length / 4));
const sent = (messages) => estimate(messages.map((m) => m.content ?? "").join("\n"));

class EstimatingModel extends OfflineModel {
  async complete(req) {
    const text = await super.complete(req);
    req.onUsage?.({ model: "offline-estimate", inputTokens: sent(req.messages), outputTokens: estimate(text) });
    return text;
  }
  async completeWithTools(req) {
    const answer = await super.completeWithTools(req);
    const output = answer.text + JSON.stringify(answer.toolCalls);
    req.onUsage?.({ model: "offline-estimate", inputTokens: sent(req.messages), outputTokens: estimate(output) });
    return answer;
  }
  async choose(req) {
    const chosen = await super.choose(req);
    req.onUsage?.({ model: "offline-estimate", inputTokens: estimate(req.prompt), outputTokens: 1 });
    return chosen;
  }
}

const dir = mkdtempSync(join(tmpdir(), "autograms-screenshots-"));
const store = await openStore(`sqlite:${join(dir, "threads.db")}`);
const graph = JSON.parse(readFileSync(join(root, "samples/native-tools/agent.graph.json"), "utf8"));
const tools = await sampleTools(dir);
const sources = [
  {
    path: "samples/native-tools/agent.ts",
    text: readFileSync(join(root, "samples/native-tools/agent.ts"), "utf8"),
    role: "agent",
  },
];
const server = await listen({
  agent: new Agent(graph, {
    model: new EstimatingModel(),
    tools: { calculator: tools.calculator, lookup: tools.lookup, convert: tools.convert },
  }),
  store,
  port: 0,
  prices: { "offline-estimate": { input: 0.15, output: 0.6 } },
  playground: { drawGraph: (g, options) => toSvg(g, options), sources: () => sources },
});
const browser = await chromium.launch({
  executablePath,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
});
let page;

async function openPage(name) {
  await page.click(`#pages [data-page="${name}"]`);
  // The studio itself is the body without a data-page (client/page-mark.ts).
  await page.waitForSelector(name === "studio" ? "body:not([data-page])" : `body[data-page="${name}"]`);
  await page.waitForLoadState("networkidle");
}

/** The runs page with the span tree of the run that looked Mars up, its tool call chosen. */
async function openSpans() {
  await openPage("runs");
  await page.locator("#run-list li[data-run]", { hasText: "lookup planet=Mars" }).locator("button").click();
  await page.waitForSelector(".span-row");
  await page.locator(".span-row.kind-tool .span-name").first().click();
  await page.waitForSelector(".span-detail h5");
}

/** The tools page with the planet lookup run on Mars's moons. */
async function runLookup() {
  await openPage("tools");
  await page.click('#tool-list li[data-tool="lookup"] button');
  await page.fill("#tool-arg-planet", "Mars");
  await page.selectOption("#tool-arg-fact", '"moons"');
  await page.click("#tool-run");
  await page.waitForSelector("#tool-answer pre");
}

/** The command palette (Ctrl+K) over the studio, narrowed to what names a run. */
async function openPalette() {
  await openPage("studio");
  await page.keyboard.press("Control+K");
  await page.waitForSelector("#palette:not([hidden])");
  await page.keyboard.type("r");
}

const idle = () =>
  page.waitForFunction(
    () => !document.querySelector(".msg.streaming") && !document.querySelector("#input").disabled,
    null,
    {
      timeout: 60_000,
    },
  );

try {
  page = await browser.newPage({ viewport: wide, deviceScaleFactor: 1 });
  await page.goto(`${server.url}/`);
  await page.waitForSelector("body[data-ready]");
  await page.click("#new-thread");
  await idle();
  for (const text of ["lookup planet=Mars", "calculator expression=3389.5*2", "How far is Jupiter?"]) {
    await page.fill("#input", text);
    await page.press("#input", "Enter");
    await idle();
  }
  for (const [file, size, show] of SHOTS) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.emulateMedia({ colorScheme: size.dark ? "dark" : "light" });
    await show();
    await page.screenshot({ path: join(out, file) });
  }
  console.log(`wrote ${SHOTS.map(([file]) => `docs/images/${file}`).join(", ")}`);
} finally {
  await browser.close();
  await server.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
