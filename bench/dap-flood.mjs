// A header-less flood against `autograms dap --port 0`: how soon the server closes the connection,
// and what it cost the server (resident memory before and after, CPU time). Linux (/proc).
// Run from the repository root after `npm run build`: node bench/dap-flood.mjs
import { spawn } from "node:child_process";
import { connect } from "node:net";
import { readFileSync } from "node:fs";
const server = spawn(process.execPath, ["cli/bin/autograms.js", "dap", "--port", "0"], {
  stdio: ["ignore", "ignore", "pipe"],
});
let log = "";
server.stderr.setEncoding("utf8").on("data", (c) => (log += c));
await new Promise((r) => {
  const t = setInterval(() => {
    if (/listening/.test(log)) {
      clearInterval(t);
      r();
    }
  }, 50);
});
const port = Number(/:(\d+);/.exec(log)[1]);
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, "utf8"))[1]) / 1024;
const cpu = () => {
  const f = readFileSync(`/proc/${server.pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(f[11]) + Number(f[12])) * 10;
};
const [r0, c0] = [rss(), cpu()];
const s = connect(port, "127.0.0.1");
s.on("error", () => {});
const started = Date.now();
const chunk = Buffer.alloc(1 << 20, "A");
let sent = 0;
for (let i = 0; i < 48 && !s.destroyed; i++) {
  s.write(chunk);
  sent++;
}
await new Promise((r) => s.on("close", r));
console.log(
  `48 MiB header-less flood: closed after ${Date.now() - started} ms; server RSS ${r0.toFixed(0)} -> ${rss().toFixed(0)} MiB; server CPU ${cpu() - c0} ms`,
);
server.kill();
