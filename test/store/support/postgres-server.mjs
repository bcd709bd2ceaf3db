/**
 * A real PostgreSQL server for the store's tests and bench/store.mjs (plain JavaScript, so the
 * benchmark runs it without a build): initdb into a temporary data directory, pg_ctl
 * start on a free loopback port, a fresh database per test, pg_ctl stop at the end. PostgreSQL
 * refuses to run as root, so as root the server runs as the unprivileged user `nobody`.
 *
 * initdb is the slow part (seconds): its result is kept once per machine as a template folder in
 * the temporary directory and copied for each server.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  chmodSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";

/**
 * @typedef {object} PostgresServer
 * @property {() => Promise<string>} newDatabase A URL of a new, empty database (schema) on the server.
 * @property {(database: string) => string} url
 * @property {() => void} stop
 * @property {() => void} down Stops the server as a crash would (pg_ctl stop -m immediate), its data kept.
 * @property {() => void} up Starts it again, on the same port.
 * @property {() => number} pid The server's main process (its postmaster), whose children serve the connections.
 */

function binDir() {
  const root = "/usr/lib/postgresql";
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(join(root, v, "bin", "pg_ctl")))
      .sort((a, b) => Number(b) - Number(a));
    if (versions.length) return join(root, versions[0], "bin");
  }
  const found = spawnSync("sh", ["-c", "command -v pg_ctl"], { encoding: "utf8" }).stdout.trim();
  if (!found)
    throw new Error("PostgreSQL is not installed (initdb, pg_ctl): install Debian's postgresql package (.ci/run does)");
  return join(found, "..");
}

const asRoot = userInfo().uid === 0;

/** Runs a PostgreSQL program as the server's user. */
/** @param {string} bin @param {string} program @param {string[]} args */
function pg(bin, program, args) {
  const file = join(bin, program);
  const [cmd, argv] = /** @type {[string, string[]]} */ (
    asRoot ? ["runuser", ["-u", "nobody", "--", file, ...args]] : [file, args]
  );
  const r = spawnSync(cmd, argv, { encoding: "utf8", cwd: tmpdir() });
  if (r.status !== 0) throw new Error(`${program} ${args.join(" ")} failed: ${r.stderr || r.stdout}`);
}

/** @param {string} dir */
function giveToServer(dir) {
  if (asRoot) execFileSync("chown", ["-R", "nobody:nogroup", dir]);
}

/** @param {string} bin */
function template(bin) {
  const dir = join(tmpdir(), `autograms-pg-template-${bin.replace(/\W+/g, "_")}`);
  if (existsSync(join(dir, "PG_VERSION"))) return dir;
  const building = mkdtempSync(join(tmpdir(), "autograms-pg-initdb-"));
  giveToServer(building);
  pg(bin, "initdb", [
    "-D",
    join(building, "data"),
    "-U",
    "postgres",
    "--auth=trust",
    "-E",
    "UTF8",
    "--locale=C",
    "--no-sync",
  ]);
  try {
    renameSync(join(building, "data"), dir); // atomic: a concurrent builder's copy wins, this one is dropped
  } catch {
    // another test file built it first
  }
  rmSync(building, { recursive: true, force: true });
  return dir;
}

/** @returns {Promise<number>} */
export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/** @returns {Promise<PostgresServer>} */
export async function startPostgres() {
  const bin = binDir();
  const base = mkdtempSync(join(tmpdir(), "autograms-pg-"));
  const data = join(base, "data");
  cpSync(template(bin), data, { recursive: true });
  mkdirSync(join(base, "run"));
  chmodSync(data, 0o700);
  giveToServer(base);
  const port = await freePort();
  // fsync off: a test server need not survive a crash of the machine, and it is much faster. But
  // synchronous_commit stays on (Postgres's default, what the store's durable commits rely on):
  // each commit's WAL reaches the OS before it is acknowledged, so a server stopped as a crash
  // would (down(): pg_ctl -m immediate) keeps every turn the store said was committed.
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${join(base, "run")} -c fsync=off -c full_page_writes=off`;
  const start = () =>
    pg(bin, "pg_ctl", ["-D", data, "-o", options, "-l", join(base, "server.log"), "-w", "-t", "30", "start"]);
  start();
  // Stops the server if this process dies without calling stop() (postgres-watcher.mjs says when).
  const watcher = spawn(
    process.execPath,
    [new URL("./postgres-watcher.mjs", import.meta.url).pathname, String(process.pid), join(bin, "pg_ctl"), data, base],
    { detached: true, stdio: "ignore" },
  );
  watcher.unref();
  const url = (/** @type {string} */ database) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const { default: pgModule } = await import("pg");
  const admin = new pgModule.Client({ connectionString: url("postgres") });
  // Lost when a test takes the server down (down()); it makes databases only before that.
  admin.on("error", () => {});
  await admin.connect();
  let count = 0;
  return {
    url,
    // A schema per test, named first on the connection's search path: as empty as a new
    // database, and much quicker to make.
    async newDatabase() {
      const schema = `t${++count}`;
      await admin.query(`CREATE SCHEMA ${schema}`);
      return `${url("postgres")}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    },
    down() {
      pg(bin, "pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
    },
    up: start,
    pid: () => Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n", 1)[0]),
    stop() {
      watcher.kill();
      admin.end().catch(() => {});
      try {
        // (a test may have left it down)
        if (existsSync(join(data, "postmaster.pid"))) pg(bin, "pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(base, { recursive: true, force: true });
      }
    },
  };
}
