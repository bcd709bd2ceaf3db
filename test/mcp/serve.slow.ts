// `autograms serve --workers 2` with an agent whose tools come from an MCP server: the server
// process starts once for the command (the workers' turns call its tools through the server's
// thread), and stops when the command stops.
import { afterAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bin, cliTestFolder } from "../cli/support/run-cli.js";
import { chatBody, json, textOf, uiChunks, uiMessageOf, userMessage } from "../server/support/harness.js";
import { processGone } from "../support/process-alive.js";
import { starts } from "./support/shop-starts.js";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const folder = cliTestFolder("autograms-mcp-serve-");
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill("SIGKILL");
});

describe("autograms serve with MCP tools", () => {
  it("starts the MCP server once for its workers, whose turns call its tools, and stops it when it stops", async () => {
    const pidFile = join(folder(), "shop.pids");
    const config = join(folder(), "mcp.json");
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          shop: {
            command: process.execPath,
            args: [here("./support/shop-server.mjs")],
            env: { SHOP_PID_FILE: pidFile },
          },
        },
      }),
    );
    const args = [here("./fixtures/pool/agent.ts"), "--offline", "--workers", "2", "--port", "0"];
    const child = spawn(
      process.execPath,
      [bin, "serve", ...args, "--mcp-config", config, "--store", `sqlite:${join(folder(), "t.db")}`, "--no-playground"],
      { cwd: folder() },
    );
    children.push(child);
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    const exit = new Promise<number | null>((r) => child.on("close", r));
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (c: string) => {
        out += c;
        const m = /^listening on (http:\/\/\S+)\n/m.exec(out);
        if (m) resolve(m[1]!);
      });
      void exit.then((code) => reject(new Error(`serve exited ${code}:\n${out}\n${stderr}`)));
    });
    const said = await Promise.all(
      ["a", "b"].map(async (thread) => {
        const res = await fetch(`${url}/api/chat`, json(chatBody(thread, [userMessage("m1", "hello")])));
        // The thread's first turn is played too (the agent speaks first): the last reply answers "hello".
        return textOf(await uiMessageOf(await uiChunks(res.body!))).at(-1)!;
      }),
    );
    const pattern = /^worker (\d+): tea 2\.5 EUR, MCP tool 'out_of_stock' of 'shop' failed: no more cake$/;
    for (const reply of said) expect(reply).toMatch(pattern);
    // Played in both workers (not the server's thread, 0).
    expect(new Set(said.map((r) => pattern.exec(r)![1])).size).toBe(2);
    expect(said.some((r) => pattern.exec(r)![1] === "0")).toBe(false);
    const [pid, ...more] = starts(pidFile);
    expect(more).toEqual([]);
    child.kill("SIGTERM");
    expect(await exit).toBe(0);
    await processGone(pid!);
  });
});
