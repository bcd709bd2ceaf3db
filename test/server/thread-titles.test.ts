// Generated thread titles (`titles: true`, `serve --titles`): after a thread's first exchange a
// short call of the model, through the real openai client on the local test server, names it;
// later turns do not; a failed call leaves the title as it was; off by default, no call is made.
import { beforeAll, describe, expect, it } from "vitest";
import { OpenAIModel } from "@autograms/runtime";
import type { OpenAIServer } from "../support/openai-server.js";
import { titleOf } from "../../server/src/titles/thread-titles.js";
import { enqueueTurn } from "./support/usage-agent.js";
import { usageServers } from "./support/usage-servers.js";

const servers = usageServers("autograms-titles-");
let openai: OpenAIServer;
beforeAll(() => {
  openai = servers.openai;
});

const serve = (name: string, titles?: boolean) =>
  servers.serve(
    name,
    new OpenAIModel({ model: "test-model", baseURL: openai.baseURL, apiKey: "k", maxRetries: 0 }),
    titles === undefined ? {} : { titles },
  );
const say = (url: string, thread: string, message: string) => servers.say(url, thread, message);

const titleIn = async (url: string, thread: string): Promise<string | null> =>
  ((await (await fetch(`${url}/api/threads/${thread}`)).json()) as any).thread.title;

/** Until the model has been asked `n` requests in all (the naming call comes after the run's end). */
async function asked(n: number): Promise<void> {
  for (let i = 0; i < 200 && openai.completions.length < n; i++) await new Promise((r) => setTimeout(r, 10));
  // The title is stored just after the answer: a few more turns of the event loop.
  await new Promise((r) => setTimeout(r, 50));
}

describe("generated thread titles", () => {
  it("names a thread after its first exchange, once", async () => {
    const url = await serve("TitlesA", true);
    // A new thread's first message is answered after the agent's opening: two turns.
    enqueueTurn(openai, "Welcome.", 10, 2);
    enqueueTurn(openai, "Hello! How can I help?", 10, 2);
    openai.enqueue({ text: '"Refund for a late order."' });
    const before = openai.completions.length;
    await say(url, "n1", "My order is late, I want a refund");
    await asked(before + 5);
    const naming = openai.completions[before + 4]!.body;
    expect(naming.messages[0].role).toBe("system");
    expect(naming.messages[1].content).toBe(
      "User: My order is late, I want a refund\nAssistant: Hello! How can I help?",
    );
    expect(await titleIn(url, "n1")).toBe("Refund for a late order");
    const listed = (await (await fetch(`${url}/api/threads`)).json()) as any;
    expect(listed.threads.find((t: any) => t.id === "n1").title).toBe("Refund for a late order");
    // The next exchange asks nothing more.
    enqueueTurn(openai, "Done.", 10, 2);
    await say(url, "n1", "thanks");
    await asked(before + 8);
    expect(openai.completions.length).toBe(before + 7);
    expect(openai.pending).toBe(0);
  });

  it("leaves the title unset when the call fails, and the turn answered", async () => {
    const url = await serve("TitlesB", true);
    enqueueTurn(openai, "Welcome.", 10, 2);
    enqueueTurn(openai, "Hi there.", 10, 2);
    openai.enqueue({ status: 500, message: "the title model is down" });
    const before = openai.completions.length;
    await say(url, "n2", "hello, about my parcel");
    await asked(before + 5);
    expect(openai.pending).toBe(0);
    // The store's own: the first line of the first message.
    expect(await titleIn(url, "n2")).toBe("hello, about my parcel");
    const turns = ((await (await fetch(`${url}/api/threads/n2`)).json()) as any).turns;
    expect(turns.at(-1).reply).toBe("Hi there.");
  });

  it("asks nothing when not asked to", async () => {
    const url = await serve("TitlesC");
    enqueueTurn(openai, "Welcome.", 10, 2);
    enqueueTurn(openai, "Hi.", 10, 2);
    const before = openai.completions.length;
    await say(url, "n3", "hello");
    await asked(before + 5);
    expect(openai.completions.length).toBe(before + 4);
  });

  it("takes the first line of an answer, without quotes, a label or a full stop", () => {
    expect(titleOf('Title: "Late parcel refund."\nMore text')).toBe("Late parcel refund");
    expect(titleOf("  \n")).toBeNull();
    expect(titleOf("x".repeat(100))).toHaveLength(80);
  });
});
