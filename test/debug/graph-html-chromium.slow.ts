// `autograms graph --format html` in a real headless browser (Debian's chromium driven by
// playwright-core): no network, one group per function, every node linked to its source line,
// details on click, a trace's visits, transitions and path. The page as text: graph-html.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { toHtml } from "@autograms/compiler";
import type { Graph, TraceEvent } from "@autograms/runtime";
import type { Page } from "playwright-core";
import { type ChromiumPages, haveChromium, sharedChromium, skippedWithout } from "../support/chromium.js";
import { graph, n } from "../runtime/helpers.js";
import { autogramsInProcess, cliTestFolder } from "../cli/support/run-cli.js";
import { record, sampleGraph } from "./support.js";

const folder = cliTestFolder("autograms-html-");

let tutor: Graph;
let trace: TraceEvent[];
beforeAll(async () => {
  tutor = sampleGraph("tutor");
  trace = (await record("tutor")).events;
});

/** How often each node ran in a trace: one action event per node entered. */
function entries(events: readonly TraceEvent[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of events) {
    if (["user", "transition", "return", "quit", "tool_call"].includes(e.kind)) continue;
    counts.set(e.node, (counts.get(e.node) ?? 0) + 1);
  }
  return counts;
}

// Without the browser the suite is skipped, and its name says why.
const browserSuite = haveChromium ? describe : describe.skip;
browserSuite(`the HTML page in headless Chromium${skippedWithout}`, () => {
  let browser: ChromiumPages;
  let page: Page;
  let requests: string[];
  let errors: string[];

  beforeAll(async () => {
    browser = await sharedChromium();
  }, 60_000);
  afterAll(async () => browser?.close());

  async function open(html: string, name: string): Promise<Page> {
    const file = join(folder(), name);
    writeFileSync(file, html);
    page = await browser.newPage({ viewport: { width: 1500, height: 950 } });
    requests = [];
    errors = [];
    page.on("request", (r) => requests.push(r.url()));
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("dialog", (d) => {
      errors.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    await page.goto(pathToFileURL(file).href);
    return page;
  }

  it("draws one group per function and every node without overlaps, loads nothing else, and shows a node's details on click", async () => {
    const p = await open(toHtml(tutor), "tutor.html");
    expect(requests).toEqual([p.url()]);
    expect(errors).toEqual([]);
    expect(await p.locator(".cluster-title").allTextContents()).toEqual([
      "main",
      "global_function doUnit(topic, lesson, problem, answer)",
      "local_function checkAnswer(reply, answer)",
      "function encouragement()",
    ]);
    expect(await p.locator("g.node").count()).toBe(tutor.nodes.length);
    const boxes = await p.locator("g.node > rect:first-of-type").evaluateAll((rects) =>
      rects.map((r) => {
        const b = r.getBoundingClientRect();
        return { x: b.x, y: b.y, w: b.width, h: b.height };
      }),
    );
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]!;
        const b = boxes[j]!;
        expect(
          a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y,
          `nodes ${i} and ${j} overlap`,
        ).toBe(true);
      }
    }
    const links = await p
      .locator("g.node a.source")
      .evaluateAll((as) =>
        as.map((a) => [a.closest("g.node")!.getAttribute("data-node"), a.getAttribute("href"), a.textContent]),
      );
    expect(links).toHaveLength(tutor.nodes.filter((x) => x.loc).length);
    for (const [name, href, text] of links) {
      const line = tutor.nodes.find((x) => x.name === name)!.loc!.line;
      expect([href, text]).toEqual([`samples/tutor/agent.ts#L${line}`, `agent.ts:${line}`]);
    }
    await p.click('g.node[data-node="pose"]');
    const details = p.locator("#details");
    expect(await details.locator("h2").first().textContent()).toBe("pose");
    expect(await details.locator("a.where").textContent()).toBe("samples/tutor/agent.ts:44:5");
    expect(await details.locator("a.where").getAttribute("href")).toBe("samples/tutor/agent.ts#L44");
    expect(await details.textContent()).toContain("chat_exact");
    expect(await p.locator('g.node[data-node="pose"]').getAttribute("class")).toContain("selected");
    await p.click("#zoom-out");
    expect(Number(await p.locator("#graph").getAttribute("width"))).toBeLessThan(
      Number(await p.locator("#graph").getAttribute("height")) * 10,
    );
    await p.close();
  });

  it("overlays a trace: visit counts, transitions taken, unvisited nodes dimmed, the path step by step", async () => {
    const p = await open(toHtml(tutor, { trace }), "traced.html");
    expect(errors).toEqual([]);
    const counts = entries(trace);
    const badges = await p
      .locator("g.node")
      .evaluateAll((gs) =>
        gs.map((g) => [
          g.getAttribute("data-node"),
          g.querySelector(".badge text")?.textContent ?? null,
          g.classList.contains("unvisited"),
        ]),
      );
    for (const [name, badge, unvisited] of badges) {
      const c = counts.get(name as string);
      expect([name, badge, unvisited]).toEqual([name, c ? `×${c}` : null, !c]);
    }
    expect(counts.get("pose")).toBe(2);
    expect(await p.locator("g.node.unvisited").count()).toBe(tutor.nodes.length - counts.size);
    const taken = await p
      .locator("g.edge.taken")
      .evaluateAll((gs) =>
        gs.map((g) => [g.getAttribute("data-from"), g.getAttribute("data-to"), g.querySelector("text")?.textContent]),
      );
    const id = (name: string) => `n${tutor.nodes.findIndex((x) => x.name === name)}`;
    expect(taken).toContainEqual([id("explain"), id("pose"), "no ×2"]);
    expect(taken.map(([f, t]) => `${f}>${t}`)).not.toContain(`${id("explain")}>${id("answer_question")}`);
    const steps = await p.locator("#steps li").count();
    expect(steps).toBe(trace.filter((e) => !["transition", "return", "quit"].includes(e.kind)).length);
    await p.locator("#step").fill("20");
    const current = await p.locator("g.node.current").getAttribute("data-node");
    expect(current).toBe(await p.locator('#steps li[data-step="20"] code').textContent());
    expect(await p.locator("#step-label").textContent()).toBe(`step 21 of ${steps}: ${current}`);
    await p.locator('#steps li[data-step="3"]').click();
    expect(await p.locator("#details h2").first().textContent()).toBe("ask_ready");
    await p.close();
  });

  it("shows hostile node text as text, running nothing", async () => {
    const g = graph([
      n({
        name: "x",
        action: "chat_exact",
        instruction: "</script><img src=x onerror=alert(1)>",
        transitions: ["quit"],
        loc: { line: 1, column: 1, endLine: 1, endColumn: 2 },
      }),
    ]);
    const p = await open(toHtml(g), "hostile.html");
    await p.click('g.node[data-node="x"]');
    expect(errors).toEqual([]);
    expect(await p.locator("img").count()).toBe(0);
    expect(await p.locator("#details").textContent()).toContain("</script><img src=x onerror=alert(1)>");
    await p.close();
  });

  it("is what `autograms graph --format html --trace` writes, with links relative to the page or into VS Code", async () => {
    const dir = folder();
    const traceFile = join(dir, "chat.jsonl");
    const chat = await autogramsInProcess(["chat", "samples/tutor/agent.ts", "--offline", "--trace", traceFile], {
      input: "yes\nno questions\n3/4\n",
    });
    expect(chat.code, chat.stderr).toBe(0);
    const out = join(dir, "page.html");
    const r = await autogramsInProcess([
      "graph",
      "samples/tutor/agent.ts",
      "--format",
      "html",
      "--trace",
      traceFile,
      "-o",
      out,
    ]);
    expect([r.code, r.stderr]).toEqual([0, ""]);
    const p = await open(readFileSync(out, "utf8"), "page.html");
    const href = await p.locator('g.node[data-node="pose"] a.source').getAttribute("href");
    expect(new URL(href!, p.url()).pathname).toBe(join(process.cwd(), "samples/tutor/agent.ts").split("\\").join("/"));
    expect(await p.locator('g.node[data-node="pose"] .badge text').textContent()).toBe("×1");
    expect(await p.locator("#summary").textContent()).toMatch(/trace: \d+ steps, \d+ of \d+ nodes visited/);
    await p.close();
    const vscode = await autogramsInProcess([
      "graph",
      "samples/tutor/agent.ts",
      "--format",
      "html",
      "--link",
      "vscode",
    ]);
    expect(vscode.stdout).toMatch(/href="vscode:\/\/file\/[^"]*\/samples\/tutor\/agent\.ts:44:5"/);
    const misuse = await autogramsInProcess(["graph", "samples/tutor/agent.ts", "--trace", traceFile]);
    expect([misuse.code, misuse.stderr]).toEqual([
      2,
      "autograms graph: --trace is overlaid on the HTML page: add --format html\n",
    ]);
  });
});
