// MCP tools in a turn pool: the pool's thread holds the one connection to each MCP server and the
// workers' turns call the tools through it (a real stdio server of @modelcontextprotocol/sdk, real
// worker threads), so the server is started once however many workers play.
import { afterAll, describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { compile } from "@autograms/compiler";
import { mcpTools, type McpTools } from "@autograms/runtime/mcp";
import { TurnPool, type PlayRequest } from "@autograms/server";
import { tempFolder } from "../server/support/harness.js";
import { processGone } from "../support/process-alive.js";
import { starts } from "./support/shop-starts.js";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const AGENT = here("./fixtures/pool/agent.ts");
const { graph } = compile(readFileSync(AGENT, "utf8"), { fileName: AGENT });
const folder = tempFolder("autograms-mcp-pool-");
afterAll(() => folder.remove());

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((r) => setTimeout(r, 50));
}

const request = (threadId: string, text: string | null): PlayRequest => ({
  threadId,
  text,
  memory: null,
  signal: new AbortController().signal,
  onStep: () => {},
  onText: () => {},
});

describe("a turn pool with the tools of an MCP server", () => {
  it("starts the server once for two workers, calls its tools from both, cancels a stopped turn's call, survives a worker's death", async () => {
    const pidFile = join(folder.path, "shop.pids");
    const cancelFile = join(folder.path, "shop.cancelled");
    let opened: McpTools | undefined;
    let pool: TurnPool | undefined;
    try {
      opened = await mcpTools({
        mcpServers: {
          shop: {
            command: process.execPath,
            args: [here("./support/shop-server.mjs")],
            env: { SHOP_PID_FILE: pidFile, SHOP_CANCEL_FILE: cancelFile },
          },
        },
      });
      const shop = opened.servers.shop!;
      pool = new TurnPool({
        script: here("./fixtures/pool/worker.mjs"),
        data: { graph },
        size: 2,
        tools: { price_of: shop.price_of!, out_of_stock: shop.out_of_stock!, hang: shop.hang! },
      });
      await pool.ready();
      // Two threads at once: each turn waits 200 ms in its worker, so the second goes to the other.
      const played = await Promise.all(["a", "b"].map((t) => pool!.play(request(t, "hello"))));
      const replies = played.map((p) => p.reply!);
      const pattern = /^worker (\d+): tea 2\.5 EUR, MCP tool 'out_of_stock' of 'shop' failed: no more cake$/;
      for (const reply of replies) expect(reply).toMatch(pattern);
      const workers = new Set(replies.map((r) => pattern.exec(r)![1]));
      expect(workers.size).toBe(2);
      expect(workers.has("0")).toBe(false);
      expect(starts(pidFile)).toHaveLength(1);

      // A worker that dies fails its own turn; the connection stays for the turns after it.
      const died = await pool.play(request("a", "exit")).catch((e: { code?: string }) => e.code);
      expect(died).toBe("worker_lost");
      const after = await Promise.all(["a", "b"].map((t) => pool!.play(request(t, "again"))));
      for (const p of after) expect(p.reply).toMatch(pattern);
      expect(starts(pidFile)).toHaveLength(1);

      // A turn stopped while its tool runs: the call is cancelled at the MCP server.
      const stop = new AbortController();
      const hung = pool.play({ ...request("c", "hang"), signal: stop.signal }).catch((e: Error) => e.message);
      setTimeout(() => stop.abort(new Error("the client stopped it")), 300);
      expect(await hung).toBe("the client stopped it");
      await until(() => existsSync(cancelFile));
      expect(readFileSync(cancelFile, "utf8")).toBe("cancelled\n");
    } finally {
      await pool?.close();
      await opened?.close();
    }
    // Closing the tools stops the server they started.
    await processGone(starts(pidFile)[0]!);
  });
});
