// A stdio MCP server's life as real processes: stopped with whatever it started, within the grace
// even when it ignores SIGTERM; started again when it dies, its health saying so meanwhile.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { mcpTools } from "@autograms/runtime/mcp";
import { autograms, replies, root } from "../cli/support/run-cli.js";
import { isAlive, processGone } from "../support/process-alive.js";
import { open } from "./support/opened.js";

const RAW = fileURLToPath(new URL("./support/raw-server.mjs", import.meta.url));
const SAMPLE_SERVER = join(root, "samples/shop/server.mjs");
const folder = mkdtempSync(join(tmpdir(), "autograms-mcp-life-"));
// Processes a failing test may leave: killed at the end.
const pids: number[] = [];
afterAll(() => {
  for (const pid of pids) if (isAlive(pid)) process.kill(pid, "SIGKILL");
  rmSync(folder, { recursive: true, force: true });
});

const raw = (modes: string[], env: Record<string, string> = {}) => ({
  command: process.execPath,
  args: [RAW, ...modes],
  env,
});
/** The server's pid, as its tool 'echo' says it. */
const pidOf = async (echo: ((args: object) => unknown) | undefined) =>
  Number(String(await echo!({ text: "" })).split(" ")[0]);

describe("a stdio MCP server's processes", () => {
  it("are all stopped on close, a grandchild that ignores SIGTERM too, within the grace", async () => {
    const pidFile = join(folder, "grandchild.pid");
    const mcp = await mcpTools({ mcpServers: { s: raw(["grandchild", "ignore-term"], { RAW_PID_FILE: pidFile }) } });
    const server = await pidOf(mcp.tools.echo);
    const grandchild = Number(readFileSync(pidFile, "utf8"));
    pids.push(server, grandchild);
    expect([isAlive(server), isAlive(grandchild)]).toEqual([true, true]);
    const started = Date.now();
    await mcp.close();
    const took = Date.now() - started;
    // The default grace is 1 s; the margin is for a loaded machine.
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(2000);
    await processGone(server, 500);
    await processGone(grandchild, 500);
  });

  it("end with `autograms chat`: the server that ignores SIGTERM and its child, within the grace", async () => {
    const pidFile = join(folder, "chat-grandchild.pid");
    const config = join(folder, "chat.json");
    const server = [fileURLToPath(new URL("./support/with-grandchild.mjs", import.meta.url)), SAMPLE_SERVER];
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { shop: { command: process.execPath, args: server, env: { GRANDCHILD_PID_FILE: pidFile } } },
      }),
    );
    const started = Date.now();
    const r = await autograms(["chat", join(root, "samples/shop/agent.ts"), "--offline", "--mcp-config", config]);
    const took = Date.now() - started;
    expect(r.code, r.stderr).toBe(0);
    expect(replies(r.stdout)[0]).toMatch(/^Welcome! Tea is 2\.5 EUR today/);
    const grandchild = Number(readFileSync(pidFile, "utf8"));
    pids.push(grandchild);
    expect(isAlive(grandchild)).toBe(false);
    // Startup and one turn, and at most the 1 s grace to stop: not the 4 s it took.
    expect(took).toBeLessThan(15_000);
  });

  it("are SIGKILLed after the server's own closeGraceMs when it ignores SIGTERM", async () => {
    const mcp = await mcpTools({ mcpServers: { s: { ...raw(["ignore-term"]), closeGraceMs: 200 } } });
    const server = await pidOf(mcp.tools.echo);
    pids.push(server);
    const started = Date.now();
    await mcp.close();
    expect(Date.now() - started).toBeLessThan(700);
    await processGone(server, 500);
  });

  it("stop at once when the server heeds SIGTERM", async () => {
    const mcp = await mcpTools({ mcpServers: { s: raw([]) } });
    const server = await pidOf(mcp.tools.echo);
    const started = Date.now();
    await mcp.close();
    expect(Date.now() - started).toBeLessThan(700);
    await processGone(server, 500);
  });

  it("are started again when the server is killed: the next call works, health says down meanwhile", async () => {
    const mcp = await open({ mcpServers: { s: raw([]) } }, { limits: { maxRestarts: 2 } });
    const first = await pidOf(mcp.tools.echo);
    process.kill(first, "SIGKILL");
    await processGone(first);
    await expect.poll(() => mcp.health().s).toEqual({ up: false, why: "it was killed by SIGKILL" });
    const second = await pidOf(mcp.tools.echo);
    expect(second).not.toBe(first);
    expect(mcp.health().s).toEqual({ up: true });
    // Without a call, it comes back by itself after a short backoff.
    process.kill(second, "SIGKILL");
    await expect.poll(() => mcp.health().s.up).toBe(false);
    await expect.poll(() => mcp.health().s.up, { timeout: 5000 }).toBe(true);
    expect(await pidOf(mcp.tools.echo)).not.toBe(second);
  });

  it("is left down after maxRestarts restarts in a row, saying why", async () => {
    const mcp = await open({ mcpServers: { s: raw([]) } }, { limits: { maxRestarts: 1 } });
    await expect(mcp.tools.die!({})).rejects.toThrow("MCP tool 'die' of 's' failed: it exited with code 3");
    await expect(mcp.tools.die!({})).rejects.toThrow("MCP tool 'die' of 's' failed: it exited with code 3");
    await expect(mcp.tools.echo!({ text: "" })).rejects.toThrow(
      "MCP tool 'echo' of 's' failed: the server is down: it stopped 2 times in a row (maxRestarts 1); the last time it exited with code 3",
    );
    expect(mcp.health().s).toEqual({ up: false, why: "it exited with code 3" });
  });
});
