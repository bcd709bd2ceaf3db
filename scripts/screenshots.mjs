#!/usr/bin/env node
// Renders the studio in headless Chromium (the Chromium the browser tests use) and writes the
// pictures the docs show to docs/images/. Two sample agents are served offline on a throwaway
// SQLite store, a short conversation is held, and each entry of SHOTS is taken in turn: a file
// name, the page's size and theme, and the steps that show what it pictures. Another page of the
// studio is one more line there (`["metrics.png", wide, () => openPage("metrics")]`).
//
// The default agent is samples/native-tools (the planet guide: its tools called natively), the
// second samples/tutor (its page at /agents/FractionTutor/, with two stored evaluation runs of its
// cases, the second compared with the first, and its playground: a reply streaming, a turn picked,
// a what-if fork, the graph tab, the page at 390 px), both on the offline model. The offline model
// reports no tokens and takes no settings; for the pictures its calls report an estimate (four
// characters a token) under the name of the model chosen, `offline-estimate` unless a thread's
// settings choose `offline-estimate-large` (the list the settings choose from), priced by a
// made-up table. The conversation's last message is sent with settings chosen in the Model panel.
//
//   npm run build && node scripts/screenshots.mjs [--chromium PATH] [--only a.png,b.png]
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
import { storeTutorExperiments } from "../test/server/support/tutor-experiments.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const at = process.argv.indexOf("--chromium");
const executablePath = at > 0 ? process.argv[at + 1] : "/usr/bin/chromium";
const onlyAt = process.argv.indexOf("--only");
const only = onlyAt > 0 ? new Set(process.argv[onlyAt + 1].split(",")) : null;
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
  ["settings.png", wide, openSettings],
  // The palette stays open: the next picture leaves the page.
  ["palette.png", wide, openPalette],
  ["experiments.png", wide, openExperiments],
  ["agents.png", wide, openTutor],
  // The tutor's playground, in this order: each picture goes on from the one before.
  ["playground.png", wide, tutorStreaming],
  ["playground-turn.png", wide, pickTurn],
  ["playground-what-if.png", wide, tryWhatIf],
  ["playground-graph.png", wide, () => page.click("#graph-tab")],
  ["playground-phone.png", phone, sourceOnPhone],
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

/** The models a thread's settings choose among, the first the one the server starts with. */
const MODELS = ["offline-estimate", "offline-estimate-large"];

class EstimatingModel extends OfflineModel {
  constructor(name = MODELS[0], options = {}) {
    super(options);
    this.model = name;
    this.options = options;
  }
  /** The same answers whatever the settings: only the name its usage reports changes. */
  withSettings(settings) {
    return new EstimatingModel(settings.model ?? this.model, this.options);
  }
  async listModels() {
    return MODELS;
  }
  async complete(req) {
    const text = await super.complete(req);
    req.onUsage?.({ model: this.model, inputTokens: sent(req.messages), outputTokens: estimate(text) });
    return text;
  }
  async completeWithTools(req) {
    const answer = await super.completeWithTools(req);
    const output = answer.text + JSON.stringify(answer.toolCalls);
    req.onUsage?.({ model: this.model, inputTokens: sent(req.messages), outputTokens: estimate(output) });
    return answer;
  }
  async choose(req) {
    const chosen = await super.choose(req);
    req.onUsage?.({ model: this.model, inputTokens: estimate(req.prompt), outputTokens: 1 });
    return chosen;
  }
}

const dir = mkdtempSync(join(tmpdir(), "autograms-screenshots-"));
const store = await openStore(`sqlite:${join(dir, "threads.db")}`);
const graph = JSON.parse(readFileSync(join(root, "samples/native-tools/agent.graph.json"), "utf8"));
const tutor = JSON.parse(readFileSync(join(root, "samples/tutor/agent.graph.json"), "utf8"));
const tutorTurns = JSON.parse(readFileSync(join(root, "samples/tutor/conversation.json"), "utf8")).turns;
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
  agents: [
    {
      // Words written one at a time, so playground.png catches a reply half streamed.
      agent: new Agent(tutor, { model: new EstimatingModel(MODELS[0], { wordDelayMs: 120 }) }),
      sources: [
        {
          path: "samples/tutor/agent.ts",
          text: readFileSync(join(root, "samples/tutor/agent.ts"), "utf8"),
          role: "agent",
        },
      ],
    },
  ],
  store,
  port: 0,
  prices: { "offline-estimate": { input: 0.15, output: 0.6 }, "offline-estimate-large": { input: 2.5, output: 10 } },
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

/** The thread's Model panel open on the settings its last message was sent with. */
async function openSettings() {
  await openPage("studio");
  await page.click("#model-settings > summary");
  await page.waitForSelector("#settings-apply");
}

/** Sets the thread's model, temperature and bound on tokens in the Model panel, and closes it. */
async function chooseSettings() {
  await page.click("#model-settings > summary");
  await page.selectOption("#settings-model", "offline-estimate-large");
  await page.fill("#settings-temperature", "0.7");
  await page.fill("#settings-max-tokens", "300");
  await page.click("#settings-apply");
  await page.waitForFunction(() => document.querySelector(".settings-note")?.textContent?.startsWith("The next"));
  await page.click("#model-settings > summary");
}

/** The tutor's experiments page: its last run's cases and what changed from the run it was compared with. */
async function openExperiments() {
  await page.goto(`${server.url}/agents/${tutor.agent}/`);
  await page.waitForSelector("body[data-ready]");
  await openPage("experiments");
  await page.waitForSelector(".changes .side-by-side");
}

/** The tutor's studio, a thread of its own, the header's switcher naming both agents. */
async function openTutor() {
  await openPage("studio");
  await page.click("#new-thread");
  await idle();
  await page.fill("#input", "yes");
  await page.press("#input", "Enter");
  await idle();
}

/**
 * The tutor's playground: a thread held through the sample conversation's first turns, then a
 * question at the next unit, caught streaming a few words in, its node's line lit in the source.
 */
async function tutorStreaming() {
  await page.goto(`${server.url}/agents/${tutor.agent}/`);
  await page.waitForSelector("body[data-ready]");
  await page.click("#new-thread");
  await idle();
  for (const t of tutorTurns.slice(1, 5)) {
    await page.fill("#input", t.user);
    await page.press("#input", "Enter");
    await idle();
  }
  await page.fill("#input", "Yes: why does that rule work?");
  await page.press("#input", "Enter");
  await page.waitForFunction(
    () => (document.querySelector(".msg.streaming .text")?.textContent ?? "").split(" ").length > 8,
  );
}

/** That thread's second turn picked on the timeline: its prompts and calls, the variables it changed. */
async function pickTurn() {
  await idle();
  await page.click('#turns li[data-turn="2"] button');
  await page.waitForSelector("#turn-detail .calls");
}

/** Another problem tried from that turn: the next message's reply on a fork beside the original's. */
async function tryWhatIf() {
  page.once("dialog", (d) => void d.accept(JSON.stringify("What is 2/3 + 1/3?")));
  await page.click('#turn-detail .edit-var[data-var="problem"]');
  await page.waitForSelector("#turn-detail .what-if");
  await page.locator("#turn-detail .what-if").scrollIntoViewIfNeeded();
}

/** The source tab chosen back while the tabs still show (at 1000 px and up), then the page at 390 px. */
async function sourceOnPhone() {
  await page.setViewportSize(wide);
  await page.click("#source-tab");
  await page.setViewportSize(phone);
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
    if (text.startsWith("How far")) await chooseSettings();
    await page.fill("#input", text);
    await page.press("#input", "Enter");
    await idle();
  }
  await storeTutorExperiments(store, tutor);
  const shots = SHOTS.filter(([file]) => !only || only.has(file));
  for (const [file, size, show] of shots) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.emulateMedia({ colorScheme: size.dark ? "dark" : "light" });
    await show();
    await page.screenshot({ path: join(out, file) });
  }
  console.log(`wrote ${shots.map(([file]) => `docs/images/${file}`).join(", ")}`);
} finally {
  await browser.close();
  await server.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
