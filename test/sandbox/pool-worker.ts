import { build } from "esbuild";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";
import { createSandboxPool, type SandboxPool } from "@autograms/runtime";

/**
 * Sandbox pools for tests. Tests run against the sources, so the child's script is bundled from
 * source first (the built package ships it as dist/pool/worker.js); pools made here are
 * closed, and the bundle removed, after the file's tests.
 */
export function poolsForTests(defaults: Parameters<typeof createSandboxPool>[0] = {}) {
  let dir = "";
  const paths = { workerPath: "", dir: "" };
  const pools: SandboxPool[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "sandbox-pool-"));
    paths.dir = dir;
    paths.workerPath = join(dir, "worker.mjs");
    await build({
      entryPoints: [fileURLToPath(new URL("../../sandbox/src/pool/worker.ts", import.meta.url))],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      outfile: paths.workerPath,
      // Not the process's working folder: a test file before this one in the same worker may have
      // left it in a folder it then removed.
      absWorkingDir: fileURLToPath(new URL("../..", import.meta.url)),
      logLevel: "silent",
    });
  });

  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  return {
    paths,
    pool(options: Parameters<typeof createSandboxPool>[0] = {}): SandboxPool {
      const created = createSandboxPool({ workerPath: paths.workerPath, ...defaults, ...options });
      pools.push(created);
      return created;
    },
  };
}
