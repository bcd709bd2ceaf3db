// Forward from a stale conversation: Agent.migrate and migrateThread move it to a node of the new
// build, keeping its variables and turns; runTurn's onStale: "restart" begins it again.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Agent, type Graph, type Memory } from "@autograms/runtime";
import { migrateThread, openStore, runTurn } from "@autograms/store";
import { TestModel, roundTrip } from "../runtime/helpers.js";
import { EDITS, NEXT_MESSAGE, SHOP, WAITS, shopGraph } from "./edit-table.js";

const agentOf = (graph: Graph) => new Agent(graph, { model: new TestModel() });
const original = agentOf(shopGraph(SHOP));
const changed = EDITS.find((r) => r.edit === "change X's own instruction")!.change(SHOP);
/** The changed agent, with a node that reads a variable no conversation at checkout has. */
const withCode = changed.replace(
  `    chatExact("Thanks!");\n`,
  `    const code = "A1";\n    chatExact(\`Your code is \${code}.\`);\n    chatExact("Thanks!");\n`,
);

async function atCheckout(): Promise<Memory> {
  let memory: Memory | undefined;
  for (const text of WAITS.checkout) memory = (await original.reply(text, memory)).memory;
  return memory!;
}

describe("Agent.migrate", () => {
  it("moves a stale conversation to a node of the new build, keeping its variables and turns", async () => {
    const saved = roundTrip(await atCheckout());
    const agent = agentOf(shopGraph(changed));
    await expect(agent.reply(NEXT_MESSAGE, saved)).rejects.toMatchObject({ code: "stale_memory" });
    const { memory } = agent.migrate(saved, "checkout");
    expect(memory.stack[0]!.vars.note).toBe("looking");
    expect(memory.stack[0]!.turns).toEqual(saved.stack[0]!.turns);
    // The next message answers the node moved to ("yes": ready), so what follows it runs.
    const next = await agent.reply(NEXT_MESSAGE, roundTrip(memory));
    expect(next.reply).toBe("Thanks!");
  });

  it("refuses a node that does not exist, one no conversation waits at, or one in another function", async () => {
    const saved = await atCheckout();
    const graph = shopGraph(changed);
    const agent = agentOf(graph);
    const code = graph.nodes.find((n) => n.action === "code")!.name;
    const inPay = graph.nodes.find((n) => n.instruction === "Paid.")!.name;
    expect(() => agent.migrate(saved, "nowhere")).toThrow(
      /cannot move the conversation to 'nowhere': the graph has no such node/,
    );
    expect(() => agent.migrate(saved, code)).toThrow(
      /it is a code node; a conversation waits only at nodes that reply/,
    );
    expect(() => agent.migrate(saved, inPay)).toThrow(/it is in function 'pay', and the conversation is in main/);
    expect(() => agent.migrate(saved, "checkout")).not.toThrow();
  });

  it("refuses a node that reads a variable the conversation does not have, naming it and where the node is", async () => {
    const graph = shopGraph(withCode);
    const node = graph.nodes.find((n) => n.instruction === "Your code is $code.")!;
    const saved = roundTrip(await atCheckout());
    expect(() => agentOf(graph).migrate(saved, node.name)).toThrow(
      new RegExp(
        `reads 'code', which the conversation does not have \\(shop/agent.ts:${node.loc!.line}:${node.loc!.column}\\)`,
      ),
    );
  });

  it("refuses memory edited outside the runtime, as reply() does", async () => {
    const saved = roundTrip(await atCheckout()) as unknown as { stack: { vars: Record<string, unknown> }[] };
    saved.stack[0]!.vars.note = "forged";
    expect(() => agentOf(shopGraph(changed)).migrate(saved, "checkout")).toThrow(/checksum mismatch/);
  });
});

describe("a stale thread in a store", () => {
  const dir = mkdtempSync(join(tmpdir(), "autograms-migrate-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("migrateThread moves it, recorded as a turn without message or reply; the next message goes on from there", async () => {
    const store = await openStore(`sqlite:${join(dir, "m.db")}`);
    try {
      for (const text of WAITS.checkout) await runTurn(store, original, "t", text);
      const agent = agentOf(shopGraph(changed));
      await expect(runTurn(store, agent, "t", NEXT_MESSAGE)).rejects.toMatchObject({ code: "stale_memory" });
      const { turn } = await migrateThread(store, agent, "t", "checkout");
      expect(turn).toMatchObject({ seq: 3, user: null, reply: null });
      expect((await runTurn(store, agent, "t", NEXT_MESSAGE)).reply).toBe("Thanks!");
      expect((await store.turns("t")).map((t) => t.reply)).toEqual([
        "Welcome!",
        "Ready to check out?",
        null,
        "Thanks!",
      ]);
      await expect(migrateThread(store, agent, "t", "nowhere")).rejects.toMatchObject({ code: "bad_migration" });
      expect((await store.thread("t"))!.version).toBe(4);
      await expect(migrateThread(store, agent, "missing", "checkout")).rejects.toMatchObject({
        code: "unknown_thread",
      });
    } finally {
      await store.close();
    }
  });

  it("runTurn with onStale: restart begins it again from the start; by default it is refused", async () => {
    const store = await openStore(`sqlite:${join(dir, "r.db")}`);
    try {
      for (const text of WAITS.checkout) await runTurn(store, original, "t", text);
      const agent = agentOf(shopGraph(changed));
      await expect(runTurn(store, agent, "t", NEXT_MESSAGE)).rejects.toMatchObject({ code: "stale_memory" });
      const restarted = await runTurn(store, agent, "t", "hello again", { onStale: "restart" });
      expect(restarted).toMatchObject({ reply: "Welcome!", restarted: true, turn: { seq: 3 } });
      const next = await runTurn(store, agent, "t", "show me", { onStale: "restart" });
      expect(next.reply).toBe("Ready to pay?");
      expect(next.restarted).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});
