// Runs the MCP server module given (`node with-grandchild.mjs SERVER.mjs`) after starting a child
// of its own that ignores SIGTERM, its pid written to $GRANDCHILD_PID_FILE: what must not outlive
// the command that started the server.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const child = spawn(process.execPath, ["-e", "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], {
  stdio: "ignore",
});
writeFileSync(process.env.GRANDCHILD_PID_FILE, String(child.pid));
process.on("SIGTERM", () => {});
await import(pathToFileURL(process.argv[2]).href);
