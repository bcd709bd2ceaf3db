// The playground as a studio, in headless Chromium (Debian's chromium driven by playwright-core)
// against a real server on a real SQLite store: the agent's own source beside the chat with the
// running node's line lit, a line's nodes and a node's line, any window width (1440, 900, 390 px)
// with no horizontal overflow, the dark scheme, keyboard moves between turns.
import { describe, expect, it } from "vitest";
import { toSvg } from "@autograms/compiler";
import { Agent, OfflineModel, type ChatModel, type Graph } from "@autograms/runtime";
import type { PlaygroundSource } from "@autograms/server";
import { haveChromium, litElementsSoFar, recordLitElements, skippedWithout } from "../support/chromium.js";
import { conversation, playgroundInChromium, tutor, tutorSource } from "./support/playground-page.js";

const sources: PlaygroundSource[] = [
  { path: "samples/tutor/agent.ts", text: tutorSource, role: "agent" },
  { path: "samples/tutor/notes.ts", text: "export const note = 1;\n", role: "module" },
];
const asked: { prompt: string; choices: string[] }[] = [];
const lineOf = new Map(tutor.nodes.map((n) => [n.name, n.loc?.line]));

const browserSuite = haveChromium ? describe : describe.skip;
browserSuite(`the playground as a studio in headless Chromium${skippedWithout}`, () => {
  const playground = playgroundInChromium({
    prefix: "autograms-studio-",
    agent: () => {
      // The offline model, every question put to it recorded (what the page must show for a turn).
      const offline = new OfflineModel({ wordDelayMs: 5 });
      const model: ChatModel = {
        complete: (req) => offline.complete(req),
        choose: (req) => (asked.push({ prompt: req.prompt, choices: req.choices }), offline.choose(req)),
      };
      return new Agent(tutor, { model });
    },
    playground: { drawGraph: (g: Graph) => toSvg(g), sources: () => sources },
    viewport: { width: 1440, height: 900 },
  });
  const { idle, threadId } = playground;
  const litLine = () => playground.page.locator("#source-box .src-line.lit").getAttribute("data-line");

  it("shows the agent's source beside the chat, the running node's line lit as each turn streams", async () => {
    const { page, server, errors } = playground;
    await page.goto(server.url + "/");
    await page.waitForSelector("body[data-ready]");
    expect(await page.locator("#source-tab").getAttribute("aria-selected")).toBe("true");
    expect(await page.locator("#source-box .src-line").count()).toBe(sources[0]!.text.trimEnd().split("\n").length);
    // Every line lit while the turns stream, recorded in the page.
    await recordLitElements(page, "source-box", "data-line");
    await page.click("#new-thread");
    await idle();
    for (const t of conversation.turns.slice(1, 3)) {
      await page.fill("#input", t.user);
      await page.press("#input", "Enter");
      await idle();
    }
    const { turns } = (await (await fetch(`${server.url}/api/threads/${encodeURIComponent(threadId())}`)).json()) as {
      turns: { trace: string[] }[];
    };
    const last = turns[turns.length - 1]!.trace;
    // The line left lit is the line of the node the conversation waits at.
    expect(await litLine()).toBe(String(lineOf.get(last[last.length - 1]!)));
    // Each node's step lit its line: the lines lit are the trace's lines, in order.
    const expected = turns
      .flatMap((t) => t.trace)
      .map((n) => lineOf.get(n))
      .filter((l) => l !== undefined)
      .map(String)
      .filter((l, i, all) => l !== all[i - 1]);
    const seen = (await litElementsSoFar(page)).filter((l, i, all) => l !== all[i - 1]);
    expect(seen).toEqual(expected);
    expect(errors).toEqual([]);
  });

  it("marks the lines a turn went through when the turn is chosen, and arrow keys move between turns", async () => {
    const { page, server } = playground;
    const { turns } = (await (await fetch(`${server.url}/api/threads/${encodeURIComponent(threadId())}`)).json()) as {
      turns: { seq: number; trace: string[] }[];
    };
    await page.click(`#turns li[data-turn="${turns[0]!.seq}"] button`);
    await page.waitForSelector("#turn-detail h3");
    const first = turns[0]!.trace;
    expect(await litLine()).toBe(String(lineOf.get(first[first.length - 1]!)));
    const passed = await page
      .locator("#source-box .src-line.passed, #source-box .src-line.lit")
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-line"))));
    expect(new Set(passed)).toEqual(new Set(first.map((n) => lineOf.get(n)).filter((l) => l !== undefined)));
    await page.focus("#turns");
    await page.keyboard.press("ArrowDown");
    await page.waitForSelector(`#turns li.selected[data-turn="${turns[1]!.seq}"]`);
    // The turn's detail is drawn once its data has come (after the list's selection is).
    await page.waitForFunction(
      (text) => document.querySelector("#turn-detail h3")?.textContent === text,
      `After turn ${turns[1]!.seq}`,
    );
    expect(await page.locator("#turn-detail h3").textContent()).toBe(`After turn ${turns[1]!.seq}`);
    await page.keyboard.press("Home");
    await page.waitForSelector(`#turns li.selected[data-turn="${turns[0]!.seq}"]`);
  });

  it("shows a turn's prompts and calls as the model received them", async () => {
    const { page, server } = playground;
    // The opening asks nothing; the next turn's questions are the ones asked after it.
    const { turns } = (await (await fetch(`${server.url}/api/threads/${encodeURIComponent(threadId())}`)).json()) as {
      turns: { seq: number }[];
    };
    const replayed = (await (
      await fetch(`${server.url}/api/threads/${encodeURIComponent(threadId())}/turns/2/calls`)
    ).json()) as { events: { decisions?: unknown[] }[] };
    const inTurn2 = replayed.events.flatMap((e) => e.decisions ?? []).length;
    expect(inTurn2).toBeGreaterThan(0);
    await page.click(`#turns li[data-turn="${turns[1]!.seq}"] button`);
    await page.waitForSelector(".calls .call-decision, .calls details");
    const shown = await page.locator(".calls details .decision").evaluateAll((els) =>
      els.map((d) => ({
        prompt: d.querySelector("pre")!.textContent,
        choices: [...d.querySelectorAll(".choices li")].map((li) => li.textContent!.replace(/ {2}\u2190 chosen$/, "")),
      })),
    );
    expect(shown).toEqual(asked.slice(0, inTurn2));
    // A node the compiler named (`main.for_of_6ddc.step`) is shown as the line it came from.
    const label = (node: string) => (node.includes(".") ? `agent.ts:${lineOf.get(node)}` : node);
    const summaries = await page
      .locator(".calls details")
      .evaluateAll((els) =>
        els.map((d) => [d.getAttribute("data-node")!, d.querySelector("summary code")!.textContent!]),
      );
    expect(summaries.length).toBeGreaterThan(0);
    for (const [node, shownAs] of summaries) expect(shownAs).toBe(label(node!));
    const atNodes = await page.locator("#turn-detail table.changes td.node").allTextContents();
    const changed = (
      (await (await fetch(`${server.url}/api/threads/${encodeURIComponent(threadId())}`)).json()) as {
        turns: { seq: number; changes: { node: string }[] }[];
      }
    ).turns.find((t) => t.seq === turns[1]!.seq)!.changes;
    expect(changed.some((c) => c.node.includes("."))).toBe(true);
    expect(atNodes).toEqual(changed.map((c) => label(c.node)));
  });

  it("shows the nodes of a line clicked in the source, and the line of a node clicked in the graph", async () => {
    const { page } = playground;
    const node = tutor.nodes.find((n) => n.action === "chat_exact" && n.loc)!;
    await page.click(`#source-box .src-line[data-line="${node.loc!.line}"]`);
    expect(await page.locator(`#node-info [data-node-info="${node.name}"]`).count()).toBe(1);
    expect(await page.locator("#node-info").textContent()).toContain(node.instruction!);
    // Lines without a node do nothing.
    const plain = sources[0]!.text.split("\n").findIndex((_, i) => !tutor.nodes.some((n) => n.loc?.line === i + 1)) + 1;
    expect(await page.locator(`#source-box .src-line[data-line="${plain}"]`).getAttribute("class")).not.toMatch(
      /has-node/,
    );

    const other = tutor.nodes.find((n) => n.loc && n.loc.line !== node.loc!.line && n.action === "chat")!;
    await page.click("#graph-tab");
    expect(await page.locator("#graph-box").isVisible()).toBe(true);
    await page.locator(`#graph-box [data-node="${other.name}"]`).first().click();
    expect(await page.locator("#source-tab").getAttribute("aria-selected")).toBe("true");
    expect(await page.locator("#source-box .src-line.selected").getAttribute("data-line")).toBe(
      String(other.loc!.line),
    );
    expect(await page.locator(`#node-info [data-node-info="${other.name}"]`).count()).toBe(1);
  });

  it("shows the tool and action modules it was given, and nothing else", async () => {
    const { page, server } = playground;
    await page.selectOption("#file-select", "1");
    expect(await page.locator("#source-box .src-line").allTextContents()).toEqual(["1export const note = 1;"]);
    await page.selectOption("#file-select", "0");
    const res = await fetch(`${server.url}/playground/sources?path=${encodeURIComponent("/etc/passwd")}`);
    expect(await res.json()).toEqual({ files: sources });
  });

  it("tells threads apart: a title from the first message, editable, the time, turns and state, and search", async () => {
    const { page, store } = playground;
    const id = threadId();
    const row = page.locator(`#thread-list li[data-thread="${id}"]`);
    expect(await row.locator(".title").textContent()).toBe(`${conversation.turns[1]!.user}waiting`);
    expect(await row.getAttribute("data-state")).toBe("waiting");
    expect(await row.locator(".meta").textContent()).toMatch(/^\S.* · 3 turns$/);
    page.once("dialog", (d) => void d.accept("Fractions with Ana"));
    await row.locator(".rename").click();
    await page.waitForFunction(
      (i) =>
        document
          .querySelector(`#thread-list li[data-thread="${i}"] .title`)
          ?.textContent?.startsWith("Fractions with Ana"),
      id,
    );
    expect((await store.thread(id))!.title).toBe("Fractions with Ana");
    // A second thread, then search by title.
    await page.click("#new-thread");
    await idle();
    expect(await page.locator("#thread-list li").count()).toBe(2);
    await page.fill("#thread-search", "ana");
    expect(
      await page.locator("#thread-list li").evaluateAll((els) => els.map((e) => e.getAttribute("data-thread"))),
    ).toEqual([id]);
    await page.fill("#thread-search", "");
    expect(await page.locator("#thread-list li").count()).toBe(2);
    await page.click(`#thread-list li[data-thread="${id}"] .open`);
    await page.waitForFunction((i) => location.hash === `#thread=${encodeURIComponent(i)}`, id);
    await idle();
  });

  for (const [width, height] of [
    [1440, 900],
    [900, 800],
    [390, 844],
  ] as const) {
    it(`fits a window ${width} px wide: nothing wider than the window, every control reachable`, async () => {
      const { page } = playground;
      await page.setViewportSize({ width, height });
      const panels = width < 1000 ? ["threads", "chat", "code", "timeline"] : [null];
      for (const panel of panels) {
        if (panel) await page.click(`#panels [data-show="${panel}"]`);
        const overflow = await page.evaluate(() => {
          const w = document.documentElement.clientWidth;
          const wide = [...document.querySelectorAll("body *")].filter((e) => {
            const r = e.getBoundingClientRect();
            // Inside a scrolling box (the source, the graph, a table) width is the box's business.
            return (
              r.width > 0 &&
              (r.right > w + 0.5 || r.left < -0.5) &&
              !e.closest("#source-box, #graph-box, .table-wrap, #panels")
            );
          });
          return {
            scroll: document.documentElement.scrollWidth - w,
            wide: wide.map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className}`).slice(0, 5),
          };
        });
        expect(overflow, `panel ${panel ?? "all"}`).toEqual({ scroll: 0, wide: [] });
      }
      await page.click(width < 1000 ? '#panels [data-show="chat"]' : "body", {
        position: width < 1000 ? undefined : { x: 1, y: 1 },
      });
      // The send button and the new-thread button are whole within the window.
      for (const sel of ["#send", ...(width < 1000 ? [] : ["#new-thread"])]) {
        const box = (await page.locator(sel).boundingBox())!;
        expect(
          box.x >= 0 && box.x + box.width <= width && box.y + box.height <= height,
          `${sel} at ${JSON.stringify(box)}`,
        ).toBe(true);
      }
    });
  }

  it("is readable in a dark colour scheme", async () => {
    const { page, errors } = playground;
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.emulateMedia({ colorScheme: "dark" });
    const [bg, fg] = await page.evaluate(() => [
      getComputedStyle(document.body).backgroundColor,
      getComputedStyle(document.body).color,
    ]);
    const lum = (c: string) =>
      c
        .match(/\d+/g)!
        .slice(0, 3)
        .map(Number)
        .reduce((a, b) => a + b, 0) / 3;
    expect(lum(bg)).toBeLessThan(60);
    expect(lum(fg)).toBeGreaterThan(180);
    await page.emulateMedia({ colorScheme: "light" });
    expect(errors).toEqual([]);
  });

  it("tries another value of a variable from a turn: on a fork, the next message again, beside the original", async () => {
    const { page, server, errors } = playground;
    await page.setViewportSize({ width: 1440, height: 900 });
    const source = threadId();
    const get = async (id: string) =>
      (await (await fetch(`${server.url}/api/threads/${encodeURIComponent(id)}`)).json()) as {
        turns: { user: string | null; reply: string | null }[];
      };
    const before = await get(source);
    await page.click(`#turns li[data-turn="2"] button`);
    const edit = page.locator('#turn-detail .edit-var[data-var="problem"]');
    await edit.waitFor();
    page.once("dialog", (d) => void d.accept(JSON.stringify("What is 2/3 + 1/3?")));
    await edit.click();
    await page.waitForSelector("#turn-detail .what-if");
    expect(await page.locator(".what-if .original .reply").textContent()).toBe(conversation.turns[2]!.agent);
    // The edited variable reaches the rerun's reply.
    expect(await page.locator(".what-if .rerun .reply").textContent()).toBe("Here's your problem: What is 2/3 + 1/3?");
    const fork = (await page.locator(".what-if").getAttribute("data-fork"))!;
    // The thread is as it was; the fork holds its turns 1-2, the change (no message), the rerun.
    expect(await get(source)).toEqual(before);
    expect((await get(fork)).turns.map((t) => [t.user, t.reply])).toEqual([
      ...before.turns.slice(0, 2).map((t) => [t.user, t.reply]),
      [null, null],
      [conversation.turns[2]!.user, "Here's your problem: What is 2/3 + 1/3?"],
    ]);
    expect(await page.locator(`#thread-list li[data-thread="${fork}"]`).count()).toBe(1);
    expect(errors).toEqual([]);
  });
});
