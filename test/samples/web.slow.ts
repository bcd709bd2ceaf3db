// samples/web, the chat page users copy: built by Vite, served by `vite preview` (which passes /api
// on to the server, as the sample's config says), and driven in headless Chromium against a real
// server on a real SQLite store. The agent's model streams word by word and sees its request's
// signal, so a reply can be stopped or the page reloaded while it is written.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { Agent, type ChatModel, type CompletionRequest } from "@autograms/runtime";
import { listen, type RunningServer } from "@autograms/server";
import { openStore, type Store } from "@autograms/store";
import type { Page } from "playwright-core";
import type { PreviewServer } from "vite";
import { echoGraph } from "../store/support/agents.js";
import { tempFolder } from "../server/support/harness.js";
import { type ChromiumPages, haveChromium, sharedChromium, pageErrors, skippedWithout } from "../support/chromium.js";
import { SAMPLES_DIR } from "./samples.js";

const ROOT = join(SAMPLES_DIR, "web");

/**
 * Answers `echo: <message> #<call>`, a word every `delayMs`; a message with "long" in it gets a
 * long answer (time to reload or stop). Stops writing when its request's signal aborts.
 */
class SlowEcho implements ChatModel {
  calls = 0;
  aborted = 0;
  constructor(private readonly delayMs: number) {}

  async complete(req: CompletionRequest): Promise<string> {
    const n = ++this.calls;
    const user =
      /^User: (.*)$/m.exec([...req.messages].reverse().find((m) => m.role === "user")?.content ?? "")?.[1] ?? "";
    const words = [
      `echo: ${user} #${n}`,
      ...(user.includes("long") ? Array.from({ length: 40 }, (_, i) => `word${i}`) : []),
    ];
    for (const [i, word] of words.entries()) {
      if (i > 0) await new Promise((r) => setTimeout(r, this.delayMs));
      if (req.signal?.aborted) {
        this.aborted++;
        throw req.signal.reason;
      }
      req.onText?.(i === 0 ? word : ` ${word}`);
    }
    return words.join(" ");
  }

  async choose(): Promise<number> {
    return 0;
  }
}

const browserSuite = haveChromium ? describe : describe.skip;
browserSuite(`samples/web in headless Chromium${skippedWithout}`, () => {
  const folder = tempFolder("autograms-web-sample-");
  const model = new SlowEcho(40);
  let store: Store;
  let server: RunningServer;
  let preview: PreviewServer;
  let browser: ChromiumPages;
  let page: Page;
  let url: string;
  let errors: string[] = [];

  beforeAll(async () => {
    store = await openStore(`sqlite:${join(folder.path, "threads.db")}`);
    server = await listen({ agent: new Agent(echoGraph(), { model }), store, port: 0 });
    const vite = await import("vite");
    const outDir = join(folder.path, "dist");
    process.env.AUTOGRAMS_URL = server.url;
    await vite.build({ root: ROOT, logLevel: "error", build: { outDir, emptyOutDir: true } });
    preview = await vite.preview({
      root: ROOT,
      logLevel: "warn",
      build: { outDir },
      preview: { port: 0, host: "127.0.0.1" },
    });
    url = preview.resolvedUrls!.local[0]!;
    browser = await sharedChromium();
    page = await browser.newPage();
    errors = pageErrors(page);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await preview?.close();
    await server?.close();
    await store?.close();
    delete process.env.AUTOGRAMS_URL;
    folder.remove();
  });

  const shown = () =>
    page
      .locator(".message")
      .evaluateAll((els) => els.map((el) => `${el.classList.contains("user") ? "user" : "agent"}: ${el.textContent}`));
  const lastText = () => page.locator(".message").last().textContent();
  const idle = () => page.waitForSelector("button:text('Send')");
  const chatId = () => new URL(page.url()).hash.slice(1);
  const turns = async () =>
    (
      (await (await fetch(`${server.url}/api/threads/${chatId()}`)).json()).turns as {
        user: string | null;
        reply: string | null;
        status: string;
      }[]
    ).map((t) => [t.user, t.reply, t.status]);

  async function say(text: string): Promise<void> {
    await page.fill("input", text);
    await page.press("input", "Enter");
  }

  it("opens a new chat with the agent's words, then streams each reply", async () => {
    await page.goto(url);
    await page.waitForSelector(".message.assistant");
    expect(await shown()).toEqual(["agent: Hello! Say something."]);
    await idle();
    await say("hi there");
    await page.waitForSelector(".message.user");
    await idle();
    expect(await shown()).toEqual(["agent: Hello! Say something.", "user: hi there", "agent: echo: hi there #1"]);
    expect(chatId()).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("goes on with a reply after a reload in the middle of it, then restores the chat as it was", async () => {
    await say("a long story");
    await page.waitForFunction(() => [...document.querySelectorAll(".message")].at(-1)?.textContent?.includes("word3"));
    await page.reload();
    // The reply resumes from the server and ends whole.
    await page.waitForFunction(() =>
      [...document.querySelectorAll(".message")].at(-1)?.textContent?.endsWith("word39"),
    );
    await idle();
    const before = await shown();
    expect(before.slice(-2)).toEqual([
      "user: a long story",
      `agent: echo: a long story #2 ${Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ")}`,
    ]);
    await page.reload();
    await page.waitForSelector(".message");
    expect(await shown()).toEqual(before);
  });

  it("stops a reply: the server stops writing it and keeps nothing of it, and the message goes back to the input", async () => {
    const aborted = model.aborted;
    await say("another long one");
    await page.waitForFunction(() => [...document.querySelectorAll(".message")].at(-1)?.textContent?.includes("word2"));
    await page.click("button:text('Stop')");
    await page.waitForFunction(() => document.querySelector("input")!.value === "another long one");
    await idle();
    expect((await shown()).at(-1)).toMatch(/^agent: echo: a long story #2/);
    expect(model.aborted).toBe(aborted + 1);
    expect((await turns()).at(-1)).toEqual(["another long one", null, "interrupted"]);
    // The next message is answered at once.
    await page.fill("input", "short");
    await page.press("input", "Enter");
    await page.waitForFunction(() =>
      [...document.querySelectorAll(".message")].at(-1)?.textContent?.startsWith("echo: short"),
    );
    await idle();
  });

  it("regenerates the last reply, which the server replaces, and the reload shows the new one", async () => {
    const old = await lastText();
    await page.click("button:text('Regenerate')");
    await page.waitForFunction((was) => {
      const text = [...document.querySelectorAll(".message")].at(-1)?.textContent ?? "";
      return text.startsWith("echo: short") && text !== was;
    }, old);
    await idle();
    const now = await lastText();
    expect(now).toMatch(/^echo: short #\d+$/);
    expect((await turns()).slice(-2)).toEqual([
      ["short", old, "replaced"],
      ["short", now, "ok"],
    ]);
    await page.reload();
    await page.waitForSelector(".message");
    expect(await lastText()).toBe(now);
    expect(errors).toEqual([]);
  });
});
