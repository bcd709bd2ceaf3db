/**
 * Stops a test's PostgreSQL server when the process that started it dies without stopping it (a
 * test run killed with SIGKILL, or a worker that crashed): its teardown never runs then, and the
 * server would stay up with its data folder until the machine restarts. Started detached by
 * postgres-server.mjs, killed by it on a normal stop.
 *
 * Arguments: the pid to watch, the pg_ctl program, the data folder, the folder to remove.
 */
import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";

const [pid, pgCtl, data, base] = process.argv.slice(2);
if (!pid || !pgCtl || !data || !base) throw new Error("usage: postgres-watcher.mjs PID PG_CTL DATA BASE");

const alive = () => {
  try {
    process.kill(Number(pid), 0);
    return true;
  } catch (error) {
    // EPERM: it exists, it is only not ours to signal.
    return /** @type {NodeJS.ErrnoException} */ (error).code === "EPERM";
  }
};

const timer = setInterval(() => {
  if (alive()) return;
  clearInterval(timer);
  if (existsSync(join(data, "postmaster.pid"))) {
    const args = [pgCtl, "-D", data, "-m", "immediate", "-w", "stop"];
    const [cmd, argv] = userInfo().uid === 0 ? ["runuser", ["-u", "nobody", "--", ...args]] : [args[0], args.slice(1)];
    spawnSync(/** @type {string} */ (cmd), /** @type {string[]} */ (argv), { cwd: tmpdir(), stdio: "ignore" });
  }
  rmSync(base, { recursive: true, force: true });
}, 500);
