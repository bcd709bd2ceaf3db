// The playground's page (`GET /`) in headless Chromium (Debian's chromium driven by
// playwright-core) against a real server on a real SQLite store: a chat of several turns through
// the page, the node being run lit, a turn's memory and variables, fork, and a reload that keeps
// the thread. Its files as served, without a browser: playground.test.ts.
import { describe, expect, it } from "vitest";
import { toSvg } from "@autograms/compiler";
import { Agent, OfflineModel, type ChatModel, type CompletionRequest, type Graph } from "@autograms/runtime";
import { listen } from "@autograms/server";
import { haveChromium, litElementsSoFar, recordLitElements, skippedWithout } from "../support/chromium.js";
import { graph, n } from "../runtime/helpers.js";
import { conversation, playgroundInChromium, tutor } from "./support/playground-page.js";

const replies = conversation.turns.map((t) => t.agent);

// Without the browser the suite is skipped, and its name says why.
const browserSuite = haveChromium ? describe : describe.skip;
browserSuite(`the playground in headless Chromium${skippedWithout}`, () => {
  const playground = playgroundInChromium({
    prefix: "autograms-playground-",
    // Words a few milliseconds apart, so that a streamed reply is seen growing.
    agent: () => new Agent(tutor, { model: new OfflineModel({ wordDelayMs: 15 }) }),
    // The raw picture: these tests follow the run node by node, each node of the graph drawn.
    playground: { drawGraph: (g: Graph) => toSvg(g, { view: "raw" }) },
    viewport: { width: 1500, height: 950 },
  });
  const { idle, say } = playground;
  const requests: string[] = [];

  const api = async <T>(path: string): Promise<T> => (await fetch(playground.server.url + path)).json() as Promise<T>;
  const agentTexts = () => playground.page.locator(".msg.agent:not(.note) .text").allTextContents();
  const recordLit = () => recordLitElements(playground.page, "graph-box", "data-node");
  const litSoFar = () => litElementsSoFar(playground.page);

  it("holds a conversation of several turns: the agent's opening, then each reply as the page streams it", async () => {
    const { page, server, errors } = playground;
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(server.url + "/");
    await page.waitForSelector("body[data-ready]");
    expect(await page.locator("#agent-name").textContent()).toBe("FractionTutor");
    expect(await page.locator("#graph-box g.node").count()).toBe(tutor.nodes.length);
    await recordLit();
    await page.click("#new-thread");
    await idle();
    for (const t of conversation.turns.slice(1, 4)) await say(t.user);
    expect(await agentTexts()).toEqual(replies.slice(0, 4));
    expect(await page.locator(".msg.user .text").allTextContents()).toEqual(
      conversation.turns.slice(1, 4).map((t) => t.user),
    );
    expect(errors).toEqual([]);
    // Everything the page loaded came from the server itself.
    expect(requests.filter((u) => !u.startsWith(server.url))).toEqual([]);
  });

  it("lights each node as its step arrives, and leaves lit the node the conversation waits at", async () => {
    const { page } = playground;
    const threadId = playground.threadId();
    const { turns } = await api<{ turns: { trace: string[] }[] }>(`/api/threads/${encodeURIComponent(threadId)}`);
    const lit = await litSoFar();
    // Each step lights its node: the order of the trace, a node lit again only after another one.
    const visits = turns.flatMap((t) => t.trace).filter((node, i, all) => node !== all[i - 1]);
    expect(lit.filter((node, i) => node !== lit[i - 1])).toEqual(visits);
    const last = turns.at(-1)!.trace.at(-1)!;
    expect(
      await page.locator("#graph-box g.node.lit").evaluateAll((gs) => gs.map((g) => g.getAttribute("data-node"))),
    ).toEqual([last]);
    expect(await page.locator("#lit-label").textContent()).toBe(last);
    const passed = await page
      .locator("#graph-box g.node.passed")
      .evaluateAll((gs) => gs.map((g) => g.getAttribute("data-node")!));
    expect(new Set([...passed, last])).toEqual(new Set(turns.at(-1)!.trace));
  });

  it("shows a turn's memory as it was and the variables the turn changed", async () => {
    const { page } = playground;
    const threadId = playground.threadId();
    type Frame = { function?: string; vars: Record<string, unknown> };
    const memoryAt = async (turn: number) =>
      (await api<{ memory: { stack: Frame[] } }>(`/api/threads/${encodeURIComponent(threadId)}/memory?turn=${turn}`))
        .memory;
    /** Each frame as the page shows it: its variables and their values. */
    const shownFrames = () =>
      page
        .locator("#turn-detail .frame dl")
        .evaluateAll((dls) =>
          dls.map((dl) =>
            Object.fromEntries(
              [...dl.querySelectorAll("dt")].map((dt) => [
                dt.textContent,
                dt.nextElementSibling!.querySelector(".value")!.textContent,
              ]),
            ),
          ),
        );
    // Values as JSON, a long one cut at 300 characters.
    const shown = (v: unknown) => ((s) => (s.length > 300 ? `${s.slice(0, 299)}\u2026` : s))(JSON.stringify(v));
    const expected = (stack: Frame[]) =>
      stack.map((f) =>
        Object.fromEntries(
          Object.entries(f.vars)
            .filter(([n]) => !n.startsWith("_"))
            .map(([n, v]) => [n, shown(v)]),
        ),
      );
    await page.click('#turns li[data-turn="4"] button');
    await page.waitForSelector("#turn-detail .memory");
    const after4 = await memoryAt(4);
    expect(await shownFrames()).toEqual(expected(after4.stack));
    // The right answer of turn 4 counted, in the frame of doUnit (a global function, which hands it to main on return).
    expect(after4.stack.map((f) => f.vars.correct)).toEqual([0, 1]);
    expect(await page.locator("#turn-detail .frame h4").allTextContents()).toEqual([
      "main (globals) · at agent.ts:27",
      "global_function doUnit · at praise",
    ]);
    const { turns } = await api<{
      turns: { seq: number; changes: { name: string; before?: unknown; after: unknown; node: string }[] }[];
    }>(`/api/threads/${encodeURIComponent(threadId)}`);
    const changed = turns.find((t) => t.seq === 4)!.changes;
    const rows = await page
      .locator("#turn-detail table.changes tbody tr")
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)));
    // A node the compiler named shows as the line it came from.
    const shownAs = (node: string) =>
      node.includes(".") ? `agent.ts:${tutor.nodes.find((x) => x.name === node)!.loc!.line}` : node;
    expect(rows).toEqual(
      changed.map((c) => [
        c.name,
        "before" in c ? JSON.stringify(c.before) : "(new)",
        JSON.stringify(c.after),
        shownAs(c.node),
      ]),
    );
    expect(rows).toContainEqual(["correct", "0", "1", shownAs("doUnit.if_bcdb.a.code_561f")]);
    // An earlier turn: the memory before the answer was counted.
    await page.click('#turns li[data-turn="2"] button');
    await page.waitForFunction(() => document.querySelector("#turn-detail h3")?.textContent === "After turn 2");
    expect(await shownFrames()).toEqual(expected((await memoryAt(2)).stack));
    expect((await shownFrames()).map((f) => f.correct)).toEqual(["0", undefined]);
  });

  it("forks from a turn: a new thread with the turns up to it, which goes on from there", async () => {
    const { page } = playground;
    const original = playground.threadId();
    await page.click("#fork");
    await page.waitForFunction(
      (id) =>
        location.hash !== "#thread=" + encodeURIComponent(id) && document.querySelectorAll("#turns li").length === 2,
      original,
    );
    const fork = playground.threadId();
    expect(await page.locator("#thread-list li").count()).toBe(2);
    expect(await page.locator("#thread-list li.active").getAttribute("data-thread")).toBe(fork);
    expect(await agentTexts()).toEqual(replies.slice(0, 2));
    await say(conversation.turns[2]!.user);
    expect(await agentTexts()).toEqual(replies.slice(0, 3));
    const info = await api<{ thread: { forkedFrom: { id: string; turn: number }; version: number } }>(
      `/api/threads/${encodeURIComponent(fork)}`,
    );
    expect(info.thread).toMatchObject({ forkedFrom: { id: original, turn: 2 }, version: 3 });
    expect(await page.locator(`#thread-list li[data-thread="${fork}"] .meta`).textContent()).toMatch(
      new RegExp(` · 3 turns · fork of ${original.slice(0, 8)} at turn 2$`),
    );
  });

  it("keeps the thread on reload", async () => {
    const { page, errors } = playground;
    const before = page.url();
    await page.reload();
    await page.waitForSelector("body[data-ready]");
    expect(page.url()).toBe(before);
    expect(await agentTexts()).toEqual(replies.slice(0, 3));
    expect(await page.locator("#turns li").count()).toBe(3);
    expect(await page.locator("#graph-box g.node.lit").count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it("on a server with a token: opens the page without it, asks for it once, and sends it with every request", async () => {
    const { store } = playground;
    const locked = await listen({
      agent: new Agent(tutor, { model: new OfflineModel() }),
      store,
      port: 0,
      token: "s3cret",
      playground: { drawGraph: (g: Graph) => toSvg(g, { view: "raw" }) },
    });
    const p = await playground.newPage({ width: 1500, height: 950 });
    try {
      expect((await fetch(`${locked.url}/`)).status).toBe(200);
      expect((await fetch(`${locked.url}/playground/graph.svg`)).status).toBe(401);
      const asked: string[] = [];
      p.on("dialog", (d) => {
        asked.push(d.message());
        void d.accept("s3cret");
      });
      await p.goto(`${locked.url}/`);
      await p.waitForSelector("body[data-ready]");
      expect(asked).toEqual(["This server needs its token (autograms serve --token):"]);
      expect(await p.locator("#graph-box g.node").count()).toBe(tutor.nodes.length);
      expect(await p.locator("#thread-list li").count()).toBe((await store.listThreads()).length);
    } finally {
      await p.close();
      await locked.close();
    }
  });

  it("deletes a thread, after asking", async () => {
    const { page, store } = playground;
    const fork = (await store.listThreads()).find((t) => t.forkedFrom !== null)!.id;
    const count = await page.locator("#thread-list li").count();
    page.once("dialog", (d) => {
      expect(d.message()).toBe(`Delete thread ${fork} and its whole history?`);
      void d.accept();
    });
    await page.click(`#thread-list li[data-thread="${fork}"] .delete`);
    await page.waitForFunction((n) => document.querySelectorAll("#thread-list li").length === n, count - 1);
    expect(await store.thread(fork)).toBeNull();
  });

  it("joins a run still going when the page is reloaded: the rest of the reply streams in", async () => {
    const { store } = playground;
    // A one-node agent whose model writes half its answer, then waits for the test.
    const talk = graph([n({ name: "talk", action: "chat", instruction: "Answer the user.", transitions: ["talk"] })], {
      agent: "Talker",
    });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let calls = 0;
    const model: ChatModel = {
      async complete(req: CompletionRequest) {
        if (++calls === 1) return "Hello.";
        req.onText?.("Half of the");
        await held;
        req.onText?.(" answer.");
        return "Half of the answer.";
      },
      choose: async () => 0,
    };
    const slow = await listen({ agent: new Agent(talk, { model }), store, port: 0 });
    const p = await playground.newPage({ width: 1200, height: 800 });
    try {
      await p.goto(`${slow.url}/`);
      await p.waitForSelector("body[data-ready]");
      await p.click("#new-thread");
      await p.waitForFunction(
        () =>
          document.querySelector(".msg.agent .text")?.textContent === "Hello." &&
          !document.querySelector(".msg.streaming"),
      );
      await p.fill("#input", "a question");
      await p.press("#input", "Enter");
      await p.waitForFunction(() => document.querySelector(".msg.streaming .text")?.textContent === "Half of the");
      await p.reload();
      await p.waitForFunction(() => document.querySelector(".msg.streaming .text")?.textContent === "Half of the");
      expect(await p.locator("#input").isDisabled()).toBe(true);
      release();
      await p.waitForFunction(
        () =>
          !document.querySelector(".msg.streaming") &&
          !(document.querySelector("#input") as HTMLTextAreaElement).disabled,
      );
      expect(await p.locator(".msg .text").allTextContents()).toEqual(["Hello.", "a question", "Half of the answer."]);
      // This server was given no drawing function: the nodes are listed, and lit the same way.
      expect(await p.locator("#graph-box li.lit").getAttribute("data-node")).toBe("talk");
      expect(await p.locator("#turns li").count()).toBe(2);
    } finally {
      release();
      await p.close();
      await slow.close();
    }
  });

  it("shows a model's reply word by word as it streams, its node lit meanwhile", async () => {
    const { page } = playground;
    await page.click("#new-thread");
    await idle();
    await say(conversation.turns[1]!.user);
    // The text of the reply being streamed, at each change, and the node lit meanwhile.
    await page.evaluate(() => {
      const w = window as unknown as { seen: string[]; litWhile: string[] };
      w.seen = [];
      w.litWhile = [];
      new MutationObserver(() => {
        const text = document.querySelector(".msg.streaming .text")?.textContent;
        if (text) {
          w.seen.push(text);
          w.litWhile.push(document.getElementById("lit-label")!.textContent!);
        }
      }).observe(document.getElementById("messages")!, { subtree: true, childList: true, characterData: true });
    });
    await say("Yes: why does that rule work?");
    const { seen, litWhile } = await page.evaluate(() => {
      const w = window as unknown as { seen: string[]; litWhile: string[] };
      return { seen: w.seen, litWhile: w.litWhile };
    });
    const threadId = playground.threadId();
    const { turns } = await api<{ turns: { reply: string; trace: string[] }[] }>(
      `/api/threads/${encodeURIComponent(threadId)}`,
    );
    const reply = turns.at(-1)!.reply;
    expect(turns.at(-1)!.trace.at(-1)).toBe("answer_question");
    expect((await agentTexts()).at(-1)).toBe(reply);
    const distinct = [...new Set(seen)];
    expect(distinct.length).toBeGreaterThanOrEqual(Math.min(5, reply.split(" ").length - 1));
    for (const text of distinct) expect(reply.startsWith(text)).toBe(true);
    expect(new Set(litWhile)).toEqual(new Set(["answer_question"]));
  });
});
