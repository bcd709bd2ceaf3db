// A Streamable HTTP MCP server written by hand on node:http, whose tools answer without end:
// `endless_event` one SSE event that never ends, `event_flood` small events forever, `json_flood`
// a JSON answer that never ends; `echo` answers as a good server does.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

const TOOLS = ["echo", "endless_event", "event_flood", "json_flood"].map((name) => ({
  name,
  inputSchema: { type: "object", properties: {} },
}));

/** Writes `chunk` again and again while the client reads, until it goes away. */
function flood(res: ServerResponse, chunk: string): void {
  const write = () => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once("drain", write);
  };
  res.on("close", () => res.destroy());
  write();
}

export async function startFloodingServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    if (req.method !== "POST") return void res.writeHead(405).end();
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const message = JSON.parse(body) as {
        id?: number;
        method: string;
        params?: { name?: string; protocolVersion?: string };
      };
      if (message.id === undefined) return void res.writeHead(202).end();
      const answer = (result: unknown) =>
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
      if (message.method === "initialize")
        return answer({
          protocolVersion: message.params?.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: "flood", version: "1" },
        });
      if (message.method === "tools/list") return answer({ tools: TOOLS });
      switch (message.params?.name) {
        case "endless_event":
          res.writeHead(200, { "content-type": "text/event-stream" });
          res.write("data: ");
          return flood(res, "x".repeat(64 * 1024));
        case "event_flood":
          res.writeHead(200, { "content-type": "text/event-stream" });
          return flood(res, `event: ping\ndata: ${"y".repeat(1000)}\n\n`.repeat(64));
        case "json_flood":
          res.writeHead(200, { "content-type": "application/json" });
          res.write(`{"jsonrpc":"2.0","id":${message.id},"result":{"content":[{"type":"text","text":"`);
          return flood(res, "z".repeat(64 * 1024));
        default:
          return answer({ content: [{ type: "text", text: "fine" }] });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
