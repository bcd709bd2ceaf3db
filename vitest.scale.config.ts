// `npm run test:scale`: the full-size scale tests (test/scale/*.scale.ts: 4 server processes on
// one Postgres, 1,000 threads x 10 turns, with and without SIGKILLs), minutes long, so not part of
// `npm test` (which runs a small version of them, test/scale/cluster.test.ts). One file at a time:
// each takes the whole machine.
import { defineConfig } from "vitest/config";
import base from "./vitest.config.js";

export default defineConfig({
  resolve: base.resolve,
  test: {
    include: ["test/scale/**/*.scale.ts"],
    globalSetup: base.test?.globalSetup,
    testTimeout: 900_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 1,
    fileParallelism: false,
  },
});
