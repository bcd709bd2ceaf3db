// A stdio MCP server written by hand (newline-delimited JSON-RPC, no SDK), so that a test can make
// it misbehave in ways a well-made server never would. `node raw-server.mjs MODE...`:
//   crash-at-start   throws before reading anything (a stack trace on stderr, exit 1)
//   grandchild       starts a child of its own that ignores SIGTERM (its pid written to $RAW_PID_FILE)
//   ignore-term      ignores SIGTERM
//   deep-schema      lists a tool whose input schema nests 5,000 levels, beside a plain one
//   die-on-call      exits when its tool 'die' is called
// Its tools: echo (answers its pid and arguments as text), die, flood (writes a line that never
// ends), and with deep-schema also deep.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";

const modes = new Set(process.argv.slice(2));

if (modes.has("crash-at-start")) throw new Error("the database is not there");
if (modes.has("ignore-term")) process.on("SIGTERM", () => {});
if (modes.has("grandchild")) {
  const child = spawn(process.execPath, ["-e", "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], {
    stdio: "ignore",
  });
  if (process.env.RAW_PID_FILE) writeFileSync(process.env.RAW_PID_FILE, String(child.pid));
}
// Alive without stdin: a server that must be stopped by a signal.
setInterval(() => {}, 1000);

// Written as text: JSON.stringify of so deep an object would overflow this server's own stack.
const deepSchema = (levels) =>
  `${'{"type":"object","properties":{"inner":'.repeat(levels)}{"type":"string"}${"}}".repeat(levels)}`;

const tools = [
  {
    name: "echo",
    description: "Answers its arguments.",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  },
  { name: "die", description: "Exits.", inputSchema: { type: "object", properties: {} } },
  { name: "flood", description: "Writes without end.", inputSchema: { type: "object", properties: {} } },
];

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);

let buffer = "";
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  let end;
  while ((end = buffer.indexOf("\n")) >= 0) {
    const line = buffer.slice(0, end);
    buffer = buffer.slice(end + 1);
    if (line.trim()) answer(JSON.parse(line));
  }
});

function answer({ id, method, params }) {
  if (id === undefined) return;
  if (method === "initialize")
    return send({
      id,
      result: {
        protocolVersion: params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: "raw", version: "1" },
      },
    });
  if (method === "tools/list") {
    if (!modes.has("deep-schema")) return send({ id, result: { tools } });
    const listed = JSON.stringify({ jsonrpc: "2.0", id, result: { tools } });
    const deep = `{"name":"deep","description":"Too deep.","inputSchema":${deepSchema(5000)}}`;
    return process.stdout.write(`${listed.slice(0, -3)},${deep}]}}\n`);
  }
  if (method === "tools/call") {
    if (params.name === "die") process.exit(3);
    if (params.name === "flood") {
      const chunk = `{"jsonrpc":"2.0","id":${id},"result":"${"x".repeat(64 * 1024)}`;
      const write = () => {
        while (process.stdout.write(chunk));
        process.stdout.once("drain", write);
      };
      return write();
    }
    return send({
      id,
      result: { content: [{ type: "text", text: `${process.pid} ${JSON.stringify(params.arguments)}` }] },
    });
  }
  send({ id, error: { code: -32601, message: `no method ${method}` } });
}
