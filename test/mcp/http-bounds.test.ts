// A Streamable HTTP MCP server that answers without end (one endless SSE event, events forever, a
// JSON answer without end) costs the call, bounded, not the process's memory; the next call works.
import { describe, expect, it } from "vitest";
import { boundedFetch } from "../../runtime/src/mcp/bounded-fetch.js";
import { open, opened } from "./support/opened.js";
import { startFloodingServer } from "./support/flooding-server.js";

const MiB = 1024 * 1024;

async function flooded() {
  const server = await startFloodingServer();
  opened.push(server);
  return open(
    { mcpServers: { web: { url: server.url } } },
    { limits: { maxMessageBytes: MiB, maxCallBytes: 4 * MiB } },
  );
}

describe("a Streamable HTTP server that answers without end", () => {
  it("fails a call whose one SSE event never ends, at maxMessageBytes, and the next call works", async () => {
    const mcp = await flooded();
    const before = process.memoryUsage().rss;
    await expect(mcp.tools.endless_event!({})).rejects.toThrow(
      "MCP tool 'endless_event' of 'web' failed: it sent a message larger than 1 MiB (maxMessageBytes) answering the call of 'endless_event'",
    );
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * MiB);
    expect(await mcp.tools.echo!({})).toBe("fine");
  });

  it("fails a call whose answer streams events forever, at maxCallBytes", async () => {
    const mcp = await flooded();
    await expect(mcp.tools.event_flood!({})).rejects.toThrow(
      "MCP tool 'event_flood' of 'web' failed: it sent an answer larger than 4 MiB (maxCallBytes) answering the call of 'event_flood'",
    );
    expect(await mcp.tools.echo!({})).toBe("fine");
  });

  it("fails a call whose JSON answer never ends, at maxMessageBytes", async () => {
    const mcp = await flooded();
    await expect(mcp.tools.json_flood!({})).rejects.toThrow(
      "MCP tool 'json_flood' of 'web' failed: it sent a message larger than 1 MiB (maxMessageBytes)",
    );
    expect(await mcp.tools.echo!({})).toBe("fine");
  });
});

describe("the bound of one SSE message", () => {
  const stream = (parts: string[]) =>
    new Response(
      new ReadableStream({
        start(c) {
          for (const p of parts) c.enqueue(new TextEncoder().encode(p));
          c.close();
        },
      }),
      { headers: { "content-type": "text/event-stream" } },
    );
  const bounded = (parts: string[]) =>
    boundedFetch(
      { maxMessageBytes: 10, maxCallBytes: 1000 },
      () => {},
      async () => stream(parts),
    )("http://x", {
      method: "POST",
    });

  it("counts from the last empty line, across chunks and CRLF line ends", async () => {
    const r = await bounded(["data: 12", "3\n\n", "data: 1234\r\n\r\ndata: 5\n", "\ndata: 1234"]);
    expect(await r.text()).toMatch(/data: 1234$/);
    const over = await bounded(["data: 12", "3456\n", "data: 7\n\n"]);
    await expect(over.text()).rejects.toThrow("it sent a message larger than 10 bytes (maxMessageBytes)");
  });
});
